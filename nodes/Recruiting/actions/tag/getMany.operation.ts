import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { resourcePath } from '../../../shared/transport';
import { updateDisplayOptions } from '../../../shared/updateDisplayOptions';
import {
	additionalQueryOption,
	getManyItems,
	readAdditionalQuery,
	returnAllAndLimit,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [additionalQueryOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return await getManyItems.call(this, itemIndex, resourcePath('tags'), readAdditionalQuery(options));
}
