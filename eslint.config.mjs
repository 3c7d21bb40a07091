// The lint n8n applies to community packages: the configuration of `n8n-node lint`
// (@n8n/node-cli 0.48.x, configs/eslint.js) rebuilt from the same plugins, without the CLI's
// other dependencies. Scope: what is published (nodes/, credentials/, package.json).
// `npm run scan` additionally runs n8n's scanner itself (scripts/scan.mjs).
// import-x and its TypeScript resolver as the CLI has them: package-lock.json records the
// resolver's native binding for every platform, so `npm ci` installs it on a fresh clone.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { globalIgnores } from 'eslint/config';
import importPlugin from 'eslint-plugin-import-x';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const communityNodesRecommended = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	globalIgnores(['dist', 'build', 'node_modules', 'sandbox', 'scripts', 'bench', 'test', 'docs', 'examples']),
	{
		files: ['**/*.ts'],
		extends: [
			js.configs.recommended,
			tseslint.configs.recommended,
			communityNodesRecommended,
			importPlugin.configs['flat/recommended'],
		],
		rules: {
			'prefer-spread': 'off',
			'no-console': 'error',
		},
	},
	{
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		settings: {
			'import-x/resolver-next': [createTypeScriptImportResolver()],
		},
	},
	{
		files: ['package.json'],
		extends: [communityNodesRecommended],
		rules: {
			...n8nNodesBase.configs.community.rules,
			// The publisher's e-mail and homepage cannot be invented here: scripts/check-publish.js
			// (prepublishOnly) refuses to publish without them, and `npm run scan` runs these two
			// rules with stand-in values (see scripts/scan.mjs).
			'@n8n/community-nodes/valid-author': 'off',
			'@n8n/community-nodes/require-homepage': 'off',
		},
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		files: ['./credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['./nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
