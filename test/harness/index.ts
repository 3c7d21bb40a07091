/**
 * Test harness: runs this package's nodes through n8n's own execution code, in process, against
 * real HTTP (local servers; no nock, no mocked `IExecuteFunctions`).
 *
 *   runNode(options)                     Start → node (or chain) through n8n-core's WorkflowExecute
 *   hookHarness(type, params, options)   webhookMethods checkExists / create / delete, + activate()
 *   webhookServer(type, params, options) a local HTTP endpoint that runs webhook() per request
 *   loadOptionsHarness(type, params)     listSearch methods (pickers) with n8n-core's LoadOptionsContext
 *   StaticDataStore                      the "database row" of static data, shareable between them
 *   loadInFreshProcess(load)             a module with fresh module memory (another n8n process)
 *   RestartableProcess(start)            the process behind a test's URLs; restart() replaces it
 *
 * Real n8n code (n8n-core 2.41.1 / n8n-workflow 2.41.0, as installed):
 * - `WorkflowExecute.processRunExecutionData` (node ordering, pairedItem, onError / continueOnFail,
 *   error output routing, error normalisation), `ExecutionLifecycleHooks`;
 * - the node contexts `ExecuteContext`, `HookContext`, `WebhookContext`, and everything behind
 *   `this.helpers` — `httpRequestWithAuthentication` / `httpRequest` go out through n8n's
 *   `OutboundHttp` (axios) to the URL the node builds, and fail as n8n's `NodeApiError`;
 * - `Workflow` (parameter defaults, expressions such as `={{ $json.id }}`, static data as
 *   `ObservableObject` with its change flag), `NodeHelpers.getVersionedNodeType`,
 *   `NodeHelpers.getNodeWebhookPath`, `getNodeWebhookUrl`; the credential's generic
 *   `authenticate` is resolved by n8n's expression engine with `$credentials`;
 * - request content-type parsing (`parseIncomingMessage` from @n8n/backend-network) and the
 *   webhook sandbox CSP header.
 *
 * Stand-ins, written here after n8n's CLI (which is not a dependency):
 * - credentials.ts: the CLI `CredentialsHelper` minus database, encryption, overwrites, OAuth,
 *   `preAuthentication` and expression-valued credential fields; values come from the test.
 * - additionalData.ts: a small `IWorkflowExecuteAdditionalData` (absolute URLs under
 *   http://127.0.0.1:5678, hooks, credentials helper); sub-workflows and task runners throw.
 * - nodeTypes.ts: the node-type registry over the classes the test passes in, plus `harness.start`
 *   (stands in for the Manual Trigger: emits the test's input items). `execute` is wrapped only to
 *   hand the thrown error instance back (`result.error`); it runs unchanged.
 * - hookHarness.ts: `ActiveWorkflowManager.addWebhooks` / `clearWebhooks` and
 *   `WebhookService.runWebhookMethod`: checkExists → create on activation (mode 'trigger'),
 *   delete on deactivation (mode 'internal', activation 'update'), on a workflow freshly loaded
 *   from the store each time, saved back only on success and when changed.
 * - webhookServer.ts + expressShim.ts: `LiveWebhooks` / `WebhookHelpers.executeWebhook` /
 *   `WebhookRequestHandler` for responseMode 'onReceived', with a minimal Express-like req/res.
 *
 * Usage: see harness.test.ts.
 */
import './env';

export { runNode, type NodeSpec, type RunNodeOptions, type RunNodeResult } from './runNode';
export { hookHarness, type HookCall, type HookHarness } from './hookHarness';
export { pollHarness, type PollHarness, type PollHarnessOptions, type PollOutcome } from './pollHarness';
export { loadOptionsHarness, type LoadOptionsHarness } from './loadOptions';
export { webhookServer, type WebhookCall, type WebhookServer } from './webhookServer';
export { StaticDataStore } from './staticData';
export { HarnessCredentialsHelper, type CredentialValues } from './credentials';
export { PACKAGE_NAME, fullTypeName } from './nodeTypes';
export { type NodeTypeSource, type TriggerOptions } from './triggerWorkflow';
export { loadInFreshProcess, RestartableProcess } from './freshProcess';
