import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class RecruitingApi implements ICredentialType {
	name = 'recruitingApi';

	displayName = 'Recruiting API';

	documentationUrl = 'https://docs.hirehive.com/api-reference';

	icon: Icon = {
		light: 'file:../nodes/Recruiting/recruiting.svg',
		dark: 'file:../nodes/Recruiting/recruiting.dark.svg',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'http://127.0.0.1:5679',
			placeholder: 'https://api.example.com',
			description: 'The root of the service, without the /v1.0 version segment',
			required: true,
		},
		{
			displayName: 'Company ID',
			name: 'companyId',
			type: 'string',
			default: '',
			placeholder: 'cmp_demo',
			description: 'The ID of your company account; it is part of every request path',
			required: true,
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	// The cheapest authenticated call: one tag. A wrong token or company answers 401 with the service's own message.
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{$credentials.baseUrl.replace(/\\/+$/, "")}}/v1.0/{{encodeURIComponent($credentials.companyId)}}',
			url: '/tags',
			qs: { page_size: 1 },
		},
	};
}
