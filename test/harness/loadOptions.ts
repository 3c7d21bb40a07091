/**
 * `loadOptionsHarness`: calls a node's `methods.listSearch.<name>` with n8n-core's real
 * `LoadOptionsContext`, as the editor's "From list" pickers do (n8n's
 * `DynamicNodeParametersService.getResourceLocatorResults`), with the same credential handling
 * as the other harnesses.
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INodeListSearchResult, INodeParameters, INodeType } from 'n8n-workflow';

import { TriggerWorkflow, type TriggerOptions } from './triggerWorkflow';

export interface LoadOptionsHarness {
	/** `listSearch[method](filter, paginationToken)` for the parameter at `path` (e.g. `parameters.tagId`). */
	search(method: string, filter?: string, paginationToken?: string, path?: string): Promise<INodeListSearchResult>;
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
	};
}
