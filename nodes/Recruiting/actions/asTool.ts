import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether the node runs as an AI agent's tool: n8n gives a node's tool variant its own type,
 * named after it with `Tool` appended (`recruitingTool`), the same test as its `@tool` display option.
 */
export function isToolMode(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}
