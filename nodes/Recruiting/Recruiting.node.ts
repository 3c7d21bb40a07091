import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { resourceDescriptions, resourceProperty } from './actions/resources';
import { router } from './actions/router';
import { listSearch, loadOptions } from './methods';
import { READ_WINDOW } from '../shared/transport';
import { MAX_CONCURRENCY, REQUEST_OPTIONS } from './actions/requestPolicy';

/** Options of every operation's HTTP requests; read in actions/requestPolicy.ts and handed to the transport. */
const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: REQUEST_OPTIONS,
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			// n8n's lint wants a literal here: a test holds it to DEFAULT_POLICY.timeoutMs.
			default: 30000,
			description:
				'How long to wait for each answer of the service, in milliseconds. A GET, PUT or DELETE that times out is retried (bounded); a POST is not.',
		},
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
			default: 1,
			description: `How many input items to process at once. Output order and item pairing stay the same. 1 sends one after another; with more, the items after a failing one may already have been sent. Unset: Get and Get Many run up to ${READ_WINDOW} items at once, as fast as the service allows (see Max Wait for Rate Limits); every other operation one after another.`,
		},
		{
			displayName: 'Pages in Flight',
			name: 'pagesInFlight',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
			default: 4,
			description: `How many pages of a Return All list to request at once, once the first page tells how many there are. Items keep their order. 1 asks for one page after another. Unset: up to ${READ_WINDOW}, as fast as the service allows.`,
		},
		{
			displayName: 'Max Wait for Rate Limits',
			name: 'maxRateLimitWait',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			// A literal, as n8n's lint wants: a test holds it to DEFAULT_MAX_RATE_LIMIT_WAIT_MS.
			default: 300,
			description:
				'How long this run may wait, in seconds, when the service answers 429 (too many requests) and no request gets through. The node learns how fast the service lets it send and slows down to that pace; waits are waited out however often as long as requests succeed in between. 0 fails at the first 429.',
		},
	],
};

/** A thin shell: the description is assembled from the resources, the work is in the router. */
export class Recruiting implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Recruiting',
		name: 'recruiting',
		icon: { light: 'file:recruiting.svg', dark: 'file:recruiting.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify, on by default, on Application Get Many, Candidate Get and Job Get.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Work with jobs, candidates, applications, interviews and more in the recruiting service',
		defaults: { name: 'Recruiting' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'recruitingApi', required: true }],
		properties: [resourceProperty, ...resourceDescriptions, requestOptions],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
