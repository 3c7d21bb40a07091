import type { INodeProperties } from 'n8n-workflow';
import type { OperationMap } from '../types';

// Operations of this resource are being added; see the resource table in the README.
export const operations = {} satisfies OperationMap;

export const description: INodeProperties[] = [];
