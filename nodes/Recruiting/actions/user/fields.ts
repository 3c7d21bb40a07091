import type { INodeProperties } from 'n8n-workflow';
import { idLocator } from '../common.descriptions';

/**
 * A user picked from the company's users (*From list*, searched by name and e-mail), or given by
 * ID (usr_…). Inside a collection it is optional; read it there with `locatorValue`.
 */
export function userLocator(name: string, displayName: string, description: string, required = true): INodeProperties {
	const locator = idLocator({ name, displayName, placeholder: 'usr_…', searchListMethod: 'searchUsers', description });
	const modes = (locator.modes ?? []).map((mode) => (mode.name === 'list' ? { ...mode, placeholder: 'Select a user...' } : mode));
	return { ...locator, modes, required };
}

/** Several users, from a dropdown of the company's users (n8n has no "From list" picker in lists); IDs by expression. */
export function usersField(displayName: string, name: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getUsers' },
		default: [],
		description: `${description}. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}
