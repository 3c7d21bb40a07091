/**
 * What the editor shows of the two nodes, read from their descriptions the way n8n reads them:
 * the node panel entry, the trigger panel, parameter issues, add buttons and labels.
 */
import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Recruiting } from '../../nodes/Recruiting/Recruiting.node';
import { RecruitingTrigger } from '../../nodes/RecruitingTrigger/RecruitingTrigger.node';
import { RecruitingPollingTrigger } from '../../nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node';
import { redactHeaders } from '../../nodes/RecruitingTrigger/delivery';
import { testNode } from '../harness/testNode';

const action = new Recruiting().description;
const trigger = new RecruitingTrigger().description;
const pollingTrigger = new RecruitingPollingTrigger().description;

/** Every parameter of a description, nested ones (collections, fixedCollection values) included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option && Array.isArray(option.values)) return allProperties(option.values);
			if ('type' in option && 'displayName' in option) return allProperties([option as INodeProperties]);
			return [];
		});
		return [property, ...nested];
	});
}

/** Every text a user reads in the trigger's editor window. */
function triggerTexts(): string[] {
	const panel = trigger.triggerPanel as { header: string; executionsHelp: Record<string, string>; activationHint: Record<string, string> };
	return [
		trigger.description,
		panel.header,
		...Object.values(panel.executionsHelp),
		...Object.values(panel.activationHint),
		...allProperties(trigger.properties).flatMap((p) => [p.displayName, p.description ?? '']),
	];
}

describe('node panel', () => {
	// n8n's community-node categories (the codex of a community package must use these).
	const CATEGORIES = [
		'Data & Storage', 'Finance & Accounting', 'Marketing & Content', 'Productivity', 'Miscellaneous',
		'Sales', 'Development', 'Analytics', 'Communication', 'Utility',
	];

	test.each([
		['Recruiting', 'nodes/Recruiting/Recruiting.node.json'],
		['Recruiting Trigger', 'nodes/RecruitingTrigger/RecruitingTrigger.node.json'],
		['Recruiting Polling Trigger', 'nodes/RecruitingPollingTrigger/RecruitingPollingTrigger.node.json'],
	])('the %s codex uses only n8n\'s categories for community nodes', (_node, file) => {
		const codex = JSON.parse(readFileSync(path.join(__dirname, '..', '..', file), 'utf8')) as { categories: string[] };
		expect(codex.categories.length).toBeGreaterThan(0);
		for (const category of codex.categories) expect(CATEGORIES).toContain(category);
	});

	test('the merged entry (n8n shows the trigger\'s description on it) speaks for both nodes', () => {
		// n8n's node creator merges "X" and "X Trigger" into one entry and copies the trigger's
		// description onto it: it must describe the actions as well as the events.
		expect(trigger.description).toMatch(/^Work with jobs, candidates, applications and interviews/);
		expect(trigger.description).toMatch(/start a workflow when it sends a webhook event/);
		expect(action.description).toMatch(/^Work with jobs, candidates, applications, interviews/);
	});
});

describe('polling trigger', () => {
	test('no parameter issue with the defaults, and the per-job events ask for Job IDs', () => {
		const parameters = NodeHelpers.getNodeParameters(pollingTrigger.properties, {}, true, false, { typeVersion: 1 }, pollingTrigger) ?? {};
		const node = testNode({ name: 'Recruiting Polling Trigger', type: 'n8n-nodes-recruiting.recruitingPollingTrigger', parameters });
		expect(NodeHelpers.getNodeParametersIssues(pollingTrigger.properties, node, pollingTrigger)).toBeNull();
		const jobIds = pollingTrigger.properties.find((p) => p.name === 'jobIds')!;
		expect(jobIds.displayOptions?.show?.event).toEqual(['application.stage.updated', 'job.note.created']);
		const perJob = testNode({ name: 'Recruiting Polling Trigger', type: 'n8n-nodes-recruiting.recruitingPollingTrigger', parameters: { ...parameters, event: 'job.note.created' } });
		expect(NodeHelpers.getNodeParametersIssues(pollingTrigger.properties, perJob, pollingTrigger)?.parameters).toHaveProperty('jobIds');
	});

	test('version 2 (the default) asks for Job IDs as rows of job pickers; version 1, as saved, keeps its text field', () => {
		const optionsOf = pollingTrigger.properties.find((p) => p.name === 'options')!.options as INodeProperties[];
		const shown = (typeVersion: number, event: string) => {
			const node = testNode({ name: 'Recruiting Polling Trigger', type: 'n8n-nodes-recruiting.recruitingPollingTrigger', typeVersion, parameters: { event } });
			const top = pollingTrigger.properties.filter((p) => p.name === 'jobIds' && NodeHelpers.displayParameter(node.parameters, p, node, pollingTrigger));
			const filter = optionsOf.filter((p) => p.name === 'jobIds' && NodeHelpers.displayParameter({}, p, node, pollingTrigger, node.parameters));
			return { top: top.map((p) => p.type), filter: filter.map((p) => p.type) };
		};
		expect(pollingTrigger.defaultVersion).toBe(2);
		expect(shown(1, 'job.note.created')).toEqual({ top: ['string'], filter: [] });
		expect(shown(2, 'job.note.created')).toEqual({ top: ['fixedCollection'], filter: [] });
		expect(shown(1, 'application.created')).toEqual({ top: [], filter: ['string'] });
		expect(shown(2, 'application.created')).toEqual({ top: [], filter: ['fixedCollection'] });
		const parameters = NodeHelpers.getNodeParameters(pollingTrigger.properties, {}, true, false, { typeVersion: 2 }, pollingTrigger) ?? {};
		const node = testNode({ name: 'Recruiting Polling Trigger', type: 'n8n-nodes-recruiting.recruitingPollingTrigger', typeVersion: 2, parameters });
		expect(NodeHelpers.getNodeParametersIssues(pollingTrigger.properties, node, pollingTrigger)).toBeNull();
	});

	test('its name says it polls, and its notice points to the webhook trigger where n8n is reachable', () => {
		expect(pollingTrigger.displayName).toBe('Recruiting Polling Trigger');
		expect(pollingTrigger.polling).toBe(true);
		expect(pollingTrigger.properties[0].displayName).toMatch(/Recruiting Trigger is instant/);
	});
});

describe('trigger panel and texts', () => {
	test('no required parameter is empty by default: n8n would leave the whole trigger panel blank', () => {
		const node = testNode({
			name: 'Recruiting Trigger',
			type: 'n8n-nodes-recruiting.recruitingTrigger',
			parameters: NodeHelpers.getNodeParameters(trigger.properties, {}, true, false, { typeVersion: 1 }, trigger) ?? {},
		});
		expect(NodeHelpers.getNodeParametersIssues(trigger.properties, node, trigger)).toBeNull();
	});

	test('n8n 2.x words: publish and unpublish, with n8n 1.x\'s activate and deactivate beside them', () => {
		for (const text of triggerTexts()) {
			for (const [old, now] of [[/\bactivat/i, /publish/i], [/\bdeactivat/i, /unpublish/i]] as const) {
				if (old.test(text)) expect({ text, saysAlso: now.test(text) }).toEqual({ text, saysAlso: true });
			}
			expect(text).not.toMatch(/\bis active\b|\bactivate it\b/i);
		}
	});

	test('before a listen the panel asks for an action; it does not say it is waiting', () => {
		const panel = trigger.triggerPanel as { header: string; executionsHelp: { inactive: string; active: string } };
		expect(panel.header).not.toMatch(/waiting/i);
		expect(panel.header).toMatch(/test event/);
		expect(panel.executionsHelp.inactive).toMatch(/create or change a record/);
		expect(panel.executionsHelp.active).toContain('unpublish');
	});

	test('the published nodes say nothing of the demo: its hints live in the demo and the README', () => {
		const files = (dir: string): string[] =>
			readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
				entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
			);
		const nodesDir = path.join(__dirname, '..', '..', 'nodes');
		const sources = files(nodesDir).filter((file) => /\.(ts|json)$/.test(file));
		expect(sources.length).toBeGreaterThan(50);
		const hits = sources.flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.map((line, i) => ({ at: `${path.relative(nodesDir, file)}:${i + 1}`, line }))
				.filter(({ line }) => /\bdemo\b|wh_try|npm start/i.test(line)),
		);
		expect(hits).toEqual([]);
	});

	test('pickers ask with the right article: "Select an application...", "Select a job..."', () => {
		const placeholders = allProperties(action.properties)
			.flatMap((p) => p.modes ?? [])
			.filter((mode) => mode.name === 'list')
			.map((mode) => mode.placeholder ?? '');
		expect(placeholders).toContain('Select an application...');
		expect(placeholders).toContain('Select a job...');
		expect(placeholders.filter((text) => /\ba [aeio]|\ban [^aeiou]/i.test(text))).toEqual([]);
	});

	test('the activation hint differs for a published workflow', () => {
		const hint = (trigger.triggerPanel as { activationHint: { active: string; inactive: string } }).activationHint;
		expect(hint.inactive).toMatch(/^Once the workflow works, publish it \(activate in n8n 1\.x\)/);
		expect(hint.active).toMatch(/^Published/);
	});

	test('Include Headers: what n8n must always redact is declared, as its Webhook node does, and the trigger drops it anyway', () => {
		const fields = trigger.sensitiveOutputFields ?? [];
		expect(fields).toEqual(expect.arrayContaining(['headers.authorization', 'headers.cookie', 'headers.proxy-authorization', 'headers.set-cookie']));
		const headers = Object.fromEntries(fields.map((field) => [field.replace(/^headers\./, ''), 'secret']));
		expect(Object.keys(headers)).toHaveLength(fields.length);
		expect(redactHeaders({ ...headers, 'webhook-id': 'msg_1' })).toEqual({ 'webhook-id': 'msg_1' });
	});
});

describe('example workflows', () => {
	const dir = path.join(__dirname, '..', '..', 'examples');
	const files = readdirSync(dir).filter((file) => file.endsWith('.json'));

	test.each(files)('%s: every Recruiting node is of the default version (Simplify on, as the README says)', (file) => {
		const workflow = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { nodes: INode[] };
		for (const node of workflow.nodes.filter((n) => n.type === 'n8n-nodes-recruiting.recruiting')) {
			expect({ node: node.name, typeVersion: node.typeVersion }).toEqual({ node: node.name, typeVersion: action.defaultVersion });
		}
	});

	test.each(files)('%s: every Recruiting Polling Trigger is of the default version (Job IDs picked from a list)', (file) => {
		const workflow = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { nodes: INode[] };
		for (const node of workflow.nodes.filter((n) => n.type === 'n8n-nodes-recruiting.recruitingPollingTrigger')) {
			expect({ node: node.name, typeVersion: node.typeVersion }).toEqual({ node: node.name, typeVersion: pollingTrigger.defaultVersion });
		}
	});
});

describe('parameters', () => {
	const descriptions: Array<[string, INodeTypeDescription]> = [
		['Recruiting', action],
		['Recruiting Trigger', trigger],
		['Recruiting Polling Trigger', pollingTrigger],
	];

	test.each(descriptions)('%s: every fixedCollection names its add button (n8n says "Choose..." otherwise)', (_node, description) => {
		const unnamed = allProperties(description.properties)
			.filter((p) => p.type === 'fixedCollection' && !p.placeholder)
			.map((p) => p.name);
		expect(unnamed).toEqual([]);
	});

	test.each(descriptions)('%s: every Options collection adds with "Add option", as n8n\'s own nodes mostly do', (_node, description) => {
		const options = allProperties(description.properties).filter((p) => p.type === 'collection' && /Options$/.test(p.displayName));
		expect(options.length).toBeGreaterThan(0);
		expect([...new Set(options.map((p) => p.placeholder))]).toEqual(['Add option']);
	});

	test('a picker that lists names is labelled by what it picks, not "… ID"', () => {
		const pickers = allProperties(action.properties).filter(
			(p) => p.type === 'resourceLocator' && (p.modes ?? []).some((mode) => mode.type === 'list'),
		);
		expect(pickers.length).toBeGreaterThan(0);
		expect(pickers.filter((p) => / ID$/.test(p.displayName)).map((p) => `${p.name}: ${p.displayName}`)).toEqual([]);
	});

	test('the Tags rows: a dropdown defaulting to "by name", a name box, both explained; named add button', () => {
		const rows = allProperties(action.properties).filter((p) => p.name === 'tags' && p.type === 'fixedCollection');
		expect(rows).toHaveLength(2); // Job Create, Candidate Update
		for (const tags of rows) {
			expect(tags.placeholder).toBe('Add Tag');
			const [row] = tags.options as Array<{ values: INodeProperties[] }>;
			const [dropdown, name] = row.values;
			expect(dropdown).toMatchObject({ displayName: 'Tag Name or ID', type: 'options', default: '' });
			expect(dropdown.hint).toMatch(/leave "By Name \(Below\)" and type its name below/);
			expect(name).toMatchObject({ displayName: 'Or Tag Name', type: 'string' });
			expect(name.hint).toMatch(/when no tag is picked above/);
		}
	});
});
