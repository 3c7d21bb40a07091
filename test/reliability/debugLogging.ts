/**
 * Imported first by secrets.test.ts, before n8n-core loads: n8n's logger at its most verbose,
 * printing metadata too, so every line n8n or the nodes could log is there to be searched.
 */
process.env.N8N_LOG_LEVEL = 'debug';
process.env.N8N_LOG_FORMAT = 'json';
process.env.N8N_LOG_OUTPUT = 'console';
