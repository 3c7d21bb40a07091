/**
 * The Recruiting Trigger in an n8n process of its own (test/harness/freshProcess.ts): its module
 * memory (signing keys, accepted delivery ids, send rates) starts empty, as in a freshly started
 * process; n8n-workflow and n8n-core are the one shared installation.
 */
import type { RecruitingTrigger } from '../../nodes/RecruitingTrigger/RecruitingTrigger.node';
import { loadInFreshProcess, RestartableProcess } from '../harness';

type TriggerModule = typeof import('../../nodes/RecruitingTrigger/RecruitingTrigger.node');

/** Loads the trigger's modules and makes the node; called inside a fresh module registry. */
const startTrigger = (): RecruitingTrigger =>
	new (require('../../nodes/RecruitingTrigger/RecruitingTrigger.node') as TriggerModule).RecruitingTrigger();

/** The trigger in a process started now, beside any others (a queue-mode webhook process, a second n8n). */
export const triggerInNewProcess = (): RecruitingTrigger => loadInFreshProcess(startTrigger);

/** The process behind a test's URLs: pass `.node` to the harnesses, `.restart()` when n8n restarts. */
export const restartableTrigger = (): RestartableProcess<RecruitingTrigger> => new RestartableProcess(startTrigger);

type SigningKeysModule = typeof import('../../nodes/RecruitingTrigger/signingKeys');
type SeenDeliveriesModule = typeof import('../../nodes/RecruitingTrigger/seenDeliveries');

/** The signing key cache of a process started now: no key in memory. */
export const signingKeysInNewProcess = (): SigningKeysModule =>
	loadInFreshProcess(() => require('../../nodes/RecruitingTrigger/signingKeys') as SigningKeysModule);

/** The accepted delivery ids of a process started now: none. */
export const seenDeliveriesInNewProcess = (): SeenDeliveriesModule =>
	loadInFreshProcess(() => require('../../nodes/RecruitingTrigger/seenDeliveries') as SeenDeliveriesModule);
