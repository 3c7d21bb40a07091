import type { INode } from 'n8n-workflow';

/** A workflow node for tests that need only a node's identity: version 1, no parameters unless given. */
export const testNode = (node: Pick<INode, 'name' | 'type'> & Partial<INode>): INode => ({
	id: 'test-node',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	...node,
});
