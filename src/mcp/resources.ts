import { DESIRED_STATE_SCHEMA } from '../engine/index.js';
import { renderPlanMarkdown } from '../render/index.js';
import type { PlanStore } from './gitops/plan-store.js';

export interface ResourceEntry {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
}

/** The desired-state schema and the session's last plan, for clients that read resources. */
export function resourceList(prefix: string): ResourceEntry[] {
  return [
    {
      uri: `${prefix}://schema/desired-state`,
      name: 'desired-state schema',
      description: 'JSON Schema (2020-12) of the desired-state YAML',
      mimeType: 'application/schema+json',
    },
    {
      uri: `${prefix}://help`,
      name: 'help',
      description: `the tools this client may call, what gates each, how errors read; one tool: ${prefix}://help/tool/{tool_name}`,
      mimeType: 'application/json',
    },
    {
      uri: `${prefix}://plan/last`,
      name: 'last plan',
      description: `the last plan of this session as markdown (empty until ${prefix}_plan ran)`,
      mimeType: 'text/markdown',
    },
  ];
}

export function readResource(prefix: string, uri: string, plans: PlanStore): string | undefined {
  if (uri === `${prefix}://schema/desired-state`) return JSON.stringify(DESIRED_STATE_SCHEMA, null, 2);
  if (uri === `${prefix}://plan/last`) {
    const last = plans.last();
    return last ? renderPlanMarkdown(last.plan, { live: last.live }) : `No plan yet: call ${prefix}_plan.\n`;
  }
  return undefined;
}

export interface PromptEntry {
  name: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
}

export function promptList(): PromptEntry[] {
  return [
    {
      name: 'review_pending_updates',
      description: 'Review the pending updates against the desired state and say what a plan would do',
      arguments: [
        { name: 'config', description: 'desired-state path (default: svc-gitops.yaml)', required: false },
      ],
    },
    {
      name: 'plan_staged_rollout',
      description: 'Plan a staged rollout in waves and apply it only after approval',
      arguments: [
        { name: 'config', description: 'desired-state path (default: svc-gitops.yaml)', required: false },
      ],
    },
  ];
}

export function promptText(prefix: string, name: string, config: string | undefined): string | undefined {
  const cfg = config ? ` with config "${config}"` : '';
  if (name === 'review_pending_updates') {
    return `Call ${prefix}_validate${cfg}; if it is valid, call ${prefix}_plan${cfg}. Summarise the plan for me: what would be ignored, unignored and updated, the high-risk actions first, and the notes. Use ${prefix}_explain for any item whose treatment is surprising. Do not apply anything.`;
  }
  if (name === 'plan_staged_rollout') {
    return `Call ${prefix}_validate${cfg} and check that rollout.waves is configured (explain how to add waves if not). Then call ${prefix}_plan${cfg}, show me the plan wave by wave with its high-risk actions, and ask me for explicit approval. Only after I approve, call ${prefix}_apply with the plan's plan_id (and, if the plan gave one, its confirmation_token and user_confirmed: true), then call ${prefix}_plan again to show that nothing is left.`;
  }
  return undefined;
}
