/**
 * Where the harness keeps a workflow's static data between lifecycle calls: the stand-in for
 * the `staticData` column of n8n's workflow table.
 *
 * n8n loads the workflow from its database for every activation, deactivation and webhook
 * request, builds a fresh `Workflow` with the stored static data, and saves it back only when
 * the call succeeded and the data changed (`WorkflowStaticDataService.saveStaticData`). The
 * harness does the same with this store, so memory a node keeps anywhere else (module
 * variables, class fields) is *not* carried by it.
 */
import type { IDataObject, Workflow } from 'n8n-workflow';

function stripObservableMarks(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(stripObservableMarks);
	if (value && typeof value === 'object') {
		const out: IDataObject = {};
		for (const [key, inner] of Object.entries(value)) {
			if (key === '__dataChanged') continue;
			out[key] = stripObservableMarks(inner) as IDataObject;
		}
		return out;
	}
	return value;
}

/** A JSON copy, as stored in the database (no proxies, no `__dataChanged` marks). */
export function toStored(data: IDataObject): IDataObject {
	return stripObservableMarks(JSON.parse(JSON.stringify(data)) as IDataObject) as IDataObject;
}

export function nodeKey(nodeName: string): string {
	return `node:${nodeName}`;
}

export class StaticDataStore {
	private data: IDataObject;

	/** How many times n8n would have written static data to its database. */
	saves = 0;

	/** @param initial whole-workflow static data, e.g. `{ 'node:Recruiting Trigger': { … } }`. */
	constructor(initial: IDataObject = {}) {
		this.data = toStored(initial);
	}

	/** What a freshly loaded workflow gets (a copy). */
	load(): IDataObject {
		return toStored(this.data);
	}

	/** `saveStaticData(workflow)`: persists only when n8n's change flag is set. */
	saveFrom(workflow: Workflow): boolean {
		if (workflow.staticData.__dataChanged !== true) return false;
		this.data = toStored(workflow.staticData);
		this.saves++;
		return true;
	}

	/** The whole stored static data (a copy). */
	get workflowData(): IDataObject {
		return toStored(this.data);
	}

	/** The stored static data of one node (a copy; `{}` when none). */
	node(nodeName: string): IDataObject {
		return toStored((this.data[nodeKey(nodeName)] as IDataObject | undefined) ?? {});
	}

	/** Replace one node's stored data (e.g. to seed or tamper with it in a test). */
	setNode(nodeName: string, value: IDataObject): void {
		this.data = { ...this.data, [nodeKey(nodeName)]: toStored(value) };
	}
}
