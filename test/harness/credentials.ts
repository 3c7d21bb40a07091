/**
 * A credentials helper for tests: the role n8n's `CredentialsHelper` (packages/cli) plays in
 * a real instance, without its database, encryption and overwrites.
 *
 * `authenticate` follows the CLI helper: a function-type `authenticate` is called as is; a
 * generic one (`{ type: 'generic', properties: { headers|qs|body|auth: {...} } }`) has each
 * key and value resolved with n8n's own expression engine
 * (`workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials })`)
 * and merged into the request options. That is what turns
 * `'=Bearer {{$credentials.accessToken}}'` into a real header.
 */
import { ICredentialsHelper, isExpression, UnexpectedError } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';

export type CredentialValues = Record<string, ICredentialDataDecryptedObject>;

/** One call to `authenticate`, kept for assertions (`harness.credentialsHelper.calls`). */
export interface AuthenticateCall {
	type: string;
	node?: string;
}

export class HarnessCredentialsHelper extends ICredentialsHelper {
	readonly types = new Map<string, ICredentialType>();

	readonly calls: AuthenticateCall[] = [];

	constructor(
		credentialTypes: ICredentialType[],
		private readonly values: CredentialValues,
	) {
		super();
		for (const type of credentialTypes) this.types.set(type.name, type);
	}

	private getType(typeName: string): ICredentialType {
		const type = this.types.get(typeName);
		if (!type) {
			throw new UnexpectedError(
				`Harness: unknown credential type "${typeName}"; pass its class in credentialTypes`,
			);
		}
		return type;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		this.calls.push({ type: typeName, node: node?.name });
		const requestOptions = incoming as IHttpRequestOptions;
		const { authenticate } = this.getType(typeName);
		if (authenticate === undefined) return requestOptions;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}
		if (!workflow || !node) {
			throw new UnexpectedError('Workflow and node are required for declarative credential authentication');
		}
		if (authenticate.type !== 'generic') return requestOptions;
		requestOptions.headers ??= {};
		const resolve = (value: string) => {
			if (!isExpression(value)) return value;
			const resolved = workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
			return resolved ? String(resolved as string | number | boolean) : '';
		};
		for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
			const target = requestOptions as unknown as Record<string, Record<string, string> | undefined>;
			const bucket = (target[outerKey] ??= {});
			for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
				bucket[resolve(key)] = resolve(value);
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
		_credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	getParentTypes(typeName: string): string[] {
		const parents: string[] = [];
		for (const parent of this.types.get(typeName)?.extends ?? []) {
			parents.push(parent, ...this.getParentTypes(parent));
		}
		return parents;
	}

	isCredentialUsableByNode(_credentialType: string, _nodeType: string): boolean {
		return true;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const values = this.values[type];
		if (values === undefined) {
			throw new UnexpectedError(`Harness: no values given for credential "${type}"`);
		}
		// Unset fields fall back to the property defaults, as in n8n's helper; a fresh copy
		// each time, as n8n decrypts afresh for every call.
		const defaults: ICredentialDataDecryptedObject = {};
		for (const property of this.types.get(type)?.properties ?? []) {
			if (property.type !== 'notice') defaults[property.name] = property.default as string;
		}
		return structuredClone({ ...defaults, ...values });
	}

	async getCredentials(_nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		throw new UnexpectedError(`Harness: getCredentials("${type}") is not supported (no credential store)`);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.getType(type).properties;
	}
}
