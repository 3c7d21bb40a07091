import type { INodePropertyOptions } from 'n8n-workflow';

/** An API value as a label: `entry_level` → `Entry Level`. */
export function labelOf(value: string): string {
	return value
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

/** How one value of a list shows in the editor, where `labelOf` alone does not say it right. */
export type OptionLabel = string | { name?: string; description: string };

/**
 * The options of a list of API values, in the list's order: the list stays the one source, and
 * `labels` names only the values `labelOf` would not name right (its keys are checked against the list).
 */
export function optionsOf<T extends string>(
	values: readonly T[],
	labels: Partial<Record<T, OptionLabel>> = {},
): INodePropertyOptions[] {
	return values.map((value) => {
		const label: OptionLabel | undefined = labels[value];
		if (label === undefined || typeof label === 'string') return { name: label ?? labelOf(value), value };
		return { name: label.name ?? labelOf(value), value, description: label.description };
	});
}
