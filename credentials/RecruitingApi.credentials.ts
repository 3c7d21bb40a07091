import type {
	IAuthenticateGeneric,
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
	Icon,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';
import { baseUrlExpression, ROOT_HINT } from '../nodes/shared/baseUrl';

/**
 * What the credential test says instead of n8n's bare status text (n8n shows a rule's message as
 * it is: it cannot quote the answer, nor the Base URL's port). A 401 is the service refusing the
 * token or the company; a 404 or a 2xx without the API's list is something that is not the service.
 */
export const TEST_RULES: Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> = [
	{
		type: 'responseCode',
		properties: {
			value: 401,
			message:
				"The service refused the Access Token for this Company ID (HTTP 401): check both; the token must be an API key of that company. n8n's credential test cannot show the service's own reason; a Recruiting node run with this credential shows it (such as \"The access token is not valid for company 'cmp_…'\").",
		},
	},
	{
		type: 'responseCode',
		properties: {
			value: 404,
			message: `GET <Base URL>/v1.0/<Company ID>/tags answered 404: the service does not know this Company ID, or the Base URL is not the service (a 404 from n8n's task broker on 127.0.0.1:5679, or the port N8N_RUNNERS_BROKER_PORT sets; a web server or a proxy). ${ROOT_HINT}`,
		},
	},
	{
		type: 'responseSuccessBody',
		properties: {
			key: 'items',
			value: undefined,
			message: `GET <Base URL>/v1.0/<Company ID>/tags answered without the API's list of tags (an HTML page, or n8n's own editor): the Base URL is not the service. ${ROOT_HINT}`,
		},
	},
];

export class RecruitingApi implements ICredentialType {
	name = 'recruitingApi';

	displayName = 'Recruiting API';

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-recruiting#credential';

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
				'The root address of the service, without /v1.0/<company>: keep the default for the hosted service. A URL pasted with the API path (…/v1.0/cmp_…) is cut back to its root when the company is the Company ID below. Plain http:// to another machine needs Allow Unencrypted HTTP (below): without it nothing is sent, and the credential test shows only ERR_INVALID_URL.',
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
				'Whether to allow a Base URL with plain http:// to a host other than this machine (while off, such a URL fails the credential test with ERR_INVALID_URL). The access token then travels unencrypted; leave off unless the service is only reachable that way on a network you trust.',
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
	// expression, since n8n sends this request by itself: nothing is sent where a node would refuse,
	// and a Base URL pasted with /v1.0/<this company> is cut back to its root as the nodes do.
	// The rules turn what n8n would show as a bare "Not Found" (or a pass) into what happened: n8n
	// reads both kinds from one list (a status code on failure, a body key on success).
	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{${baseUrlExpression()}}}/v1.0/{{encodeURIComponent($credentials.companyId)}}`,
			url: '/tags',
			qs: { page_size: 1 },
			disableFollowRedirect: true,
		},
		rules: [...TEST_RULES] as IAuthenticateRuleResponseCode[],
	};
}
