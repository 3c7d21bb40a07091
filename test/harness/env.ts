/**
 * Process environment n8n-core reads when it first builds its singletons.
 *
 * Imported first by index.ts so it runs before `n8n-core` is loaded: n8n-core's
 * `InstanceSettings` (built lazily by every node context) reads N8N_USER_FOLDER and writes
 * `<folder>/.n8n/config` when there is none. Without this, tests would create
 * `~/.n8n/config` in the developer's home folder. One fixed folder under the OS temp dir,
 * shared by all Jest workers; its settings file is written atomically (temp file + rename) so
 * parallel workers never read a half-written one.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_ENCRYPTION_KEY ??= 'recruiting-harness-test-key';
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';

if (!process.env.N8N_USER_FOLDER) {
	const userFolder = path.join(tmpdir(), 'n8n-nodes-recruiting-harness');
	const n8nFolder = path.join(userFolder, '.n8n');
	const settingsFile = path.join(n8nFolder, 'config');
	if (!existsSync(settingsFile)) {
		mkdirSync(n8nFolder, { recursive: true });
		const partial = `${settingsFile}.${process.pid}.tmp`;
		writeFileSync(partial, JSON.stringify({ encryptionKey: process.env.N8N_ENCRYPTION_KEY }));
		renameSync(partial, settingsFile);
	}
	process.env.N8N_USER_FOLDER = userFolder;
}
