import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';
import { baseUrlExpression } from '../nodes/shared/baseUrl';

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
			default: 'https://api.hirehive.com',
			placeholder: 'https://api.hirehive.com',
			description:
				'The root address of the service, without the /v1.0 version segment. Keep the default for the hosted service.',
			required: true,
		},
		{
			displayName: 'Company ID',
			name: 'companyId',
			type: 'string',
			default: '',
			placeholder: 'cmp_abc123',
			description:
				"Your company account's ID, shown with the API keys in the service's settings (API settings); it is part of every request path",
			required: true,
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: "An API key created in the service's API settings; it is sent as a Bearer token",
			required: true,
		},
		{
			displayName: 'Allow Unencrypted HTTP',
			name: 'allowInsecureHttp',
			type: 'boolean',
			default: false,
			description:
				'Whether to allow a Base URL with plain http:// to a host other than this machine. The access token then travels unencrypted; leave off unless the service is only reachable that way on a network you trust.',
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

	// The cheapest authenticated call: one tag. A wrong token or company answers 401 with the
	// service's own message. A redirect is not followed (it would carry the token elsewhere).
	// The Base URL goes through the transport's rule (nodes/shared/baseUrl.ts), generated as an
	// expression, since n8n sends this request by itself: nothing is sent where a node would refuse.
	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{${baseUrlExpression()}}}/v1.0/{{encodeURIComponent($credentials.companyId)}}`,
			url: '/tags',
			qs: { page_size: 1 },
			disableFollowRedirect: true,
		},
	};
}
