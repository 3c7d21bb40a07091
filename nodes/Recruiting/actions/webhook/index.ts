import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as get from './get.operation';
import * as update from './update.operation';

export const operations = { get, update } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('webhook', [
		{
			name: 'Get',
			value: 'get',
			description:
				'Retrieves one webhook by ID. Returns its endpoint, name, description, subscribed_events and status; the signing key only when asked for.',
			action: 'Get a webhook\'s endpoint and events by webhook ID (wh_…)',
		},
		{
			name: 'Update',
			value: 'update',
			description:
				'Overwrites a webhook\'s endpoint, name, events or description. Changing the endpoint or events of a webhook a Recruiting Trigger workflow uses stops deliveries to n8n. Returns the updated webhook.',
			action: 'Change a webhook\'s (wh_…) endpoint or events: can stop Recruiting Trigger deliveries',
		},
	]),
	...get.description,
	...update.description,
];
