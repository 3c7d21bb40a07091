import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Adds one display rule to every property (a local copy of n8n's own helper, which community
 * packages cannot import). Existing rules on a property are kept and merged.
 */
export function updateDisplayOptions(
	displayOptions: IDisplayOptions,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...displayOptions.show, ...property.displayOptions?.show },
			...(displayOptions.hide || property.displayOptions?.hide
				? { hide: { ...displayOptions.hide, ...property.displayOptions?.hide } }
				: {}),
		},
	}));
}
