import type { TriggerPanelDefinition } from 'n8n-workflow';

/**
 * What the editor shows around the trigger: the notice above its parameters and the trigger panel
 * (the left half of its window). n8n 2.x publishes workflows where n8n 1.x activated them; the
 * texts say both.
 */

export const WEBHOOK_NOTICE =
	"Create a webhook in the recruiting service's dashboard and enter its ID below. While this workflow is published (active in n8n 1.x), the webhook points at n8n; unpublishing puts its endpoint and events back.";

export const TRIGGER_PANEL: TriggerPanelDefinition = {
	header: 'Get a test event from the recruiting service',
	executionsHelp: {
		inactive: `<b>To test</b>, enter the Webhook ID and select Events, click <i>Execute step</i> (<i>Listen for test event</i> in n8n 1.x), then create or change a record the webhook listens to in the recruiting service (for example move an application to another stage). n8n points the webhook at its test URL until the first event arrives or the listen ends, then puts it back.<br /><br /><b>Once the workflow works</b>, publish it (activate in n8n 1.x): every verified delivery then starts an execution, shown in the <a data-key="executions">executions list</a>. A webhook that another workflow holds is refused; create another one in the dashboard for this workflow.`,
		active: `<b>This workflow is published</b>: every verified delivery of the selected events starts an execution, shown in the <a data-key="executions">executions list</a>. Testing with the same webhook is refused while it is published (the test would take its events away): unpublish it first (deactivate in n8n 1.x), or test with another webhook.`,
	},
	activationHint: {
		inactive:
			'Once the workflow works, publish it (activate in n8n 1.x): the webhook then points at this workflow until you unpublish it, when its endpoint and events are put back.',
		active:
			'Published: the webhook points at this workflow. Unpublishing the workflow (deactivating it in n8n 1.x) puts the webhook\'s endpoint and events back.',
	},
};
