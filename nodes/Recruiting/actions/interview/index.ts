import type { INodeProperties } from 'n8n-workflow';
import { operationSelector } from '../common.descriptions';
import type { OperationMap } from '../types';
import * as cancel from './cancel.operation';
import * as create from './create.operation';

export const operations = { cancel, create } satisfies OperationMap;

export const description: INodeProperties[] = [
	operationSelector('interview', [
		{
			name: 'Cancel',
			value: 'cancel',
			description:
				'Cancels a scheduled interview; this cannot be undone through the API. Returns { success: true }.',
			action: 'Cancel a scheduled interview by interview ID (int_…): cannot be undone',
		},
		{
			name: 'Create',
			value: 'create',
			description:
				'Schedules an interview for an application: type, start and end, time zone, attendees. Returns the created interview.',
			action: 'Schedule an interview for an application (app_…) with a start, end and type',
		},
	], 'create'),
	...cancel.description,
	...create.description,
];
