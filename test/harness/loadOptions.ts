/**
 * `loadOptionsHarness`: calls a node's `methods.listSearch.<name>` (and `loadOptions`) with n8n-core's real
 * `LoadOptionsContext`, as the editor's "From list" pickers do (n8n's
 * `DynamicNodeParametersService.getResourceLocatorResults`), with the same credential handling
 * as the other harnesses.
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INodeListSearchResult, INodeParameters, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { TriggerWorkflow, type TriggerOptions } from './triggerWorkflow';

export interface LoadOptionsHarness {
	/** `listSearch[method](filter, paginationToken)` for the parameter at `path` (e.g. `parameters.tagId`). */
	search(method: string, filter?: string, paginationToken?: string, path?: string): Promise<INodeListSearchResult>;
	/** `loadOptions[method]()`: a dropdown's options. */
	options(method: string, path?: string): Promise<INodePropertyOptions[]>;
}

export function loadOptionsHarness(
	nodeType: INodeType,
	parameters: INodeParameters,
	options: TriggerOptions = {},
): LoadOptionsHarness {
	const setup = new TriggerWorkflow(nodeType, parameters, options);
	return {
		async search(method, filter, paginationToken, path = 'parameters') {
			const search = nodeType.methods?.listSearch?.[method];
			if (!search) throw new Error(`The node has no listSearch method "${method}"`);
			const workflow = setup.loadWorkflow();
			const node = workflow.getNode(setup.node.name)!;
			const context = new LoadOptionsContext(workflow, node, setup.additionalData(), path);
			return await search.call(context, filter, paginationToken);
		},
		async options(method, path = 'parameters') {
			const load = nodeType.methods?.loadOptions?.[method];
			if (!load) throw new Error(`The node has no loadOptions method "${method}"`);
			const workflow = setup.loadWorkflow();
			const node = workflow.getNode(setup.node.name)!;
			return await load.call(new LoadOptionsContext(workflow, node, setup.additionalData(), path));
		},
	};
}
