import type { Plan } from '../types.js';
import { capBody } from './comment-budget.js';
import { codeSpan, linkTarget } from './markdown-escape.js';
import { haltMarkdown } from './rollout-halt.js';

/**
 * Title and body of the drift issue of one dashboard. Drift means the plan from the default
 * branch has actions: the dashboard is not what the repository says (someone changed ignores by
 * hand, or pending updates the policies allow have not been applied). The title holds no counts,
 * so it does not change every night and only the body is rewritten.
 */
export interface DriftReportInput {
  marker: string;
  configKey: string;
  plan: Plan;
  /** The plan rendered by render/plan-markdown (already escaped). */
  planMarkdown: string;
  runUrl?: string;
  now: Date;
}

export function driftTitle(dashboardUrl: string, configKey: string): string {
  let host = dashboardUrl;
  try {
    host = new URL(dashboardUrl).host;
  } catch {
    // keep the raw value: the title is for people
  }
  return `svc-gitops drift: ${host} (${configKey})`.slice(0, 250);
}

export function driftIssueBody(input: DriftReportInput): string {
  const { plan } = input;
  const s = plan.summary;
  const run = input.runUrl ? linkTarget(input.runUrl) : undefined;
  const halt = plan.rollout_halt ? `${haltMarkdown(plan.rollout_halt)}\n\n` : '';
  const head =
    `${input.marker}\n${halt}### Drift on ${codeSpan(plan.dashboard.url)}\n\n` +
    `The live dashboard differs from ${codeSpan(input.configKey)} on the default branch: ` +
    `${s.ignore} to ignore, ${s.unignore} to unignore, ${s.update} to update on ${s.sites} sites ` +
    `(plan ${codeSpan(plan.id.slice(0, 12))}, checked ${input.now.toISOString()}${run ? `, [run](${run})` : ''}).\n\n`;
  const tail =
    '\n\n---\nTo resolve: change the YAML in a pull request to accept the live state, or let the ' +
    'apply workflow bring the dashboard back to it. This issue is updated by every drift run and ' +
    'closed automatically when no drift is left.\n';
  // The plan's markdown leads with the same halt line: shown once, above the drift heading.
  const main = input.planMarkdown.trim();
  const shown = halt.trim();
  return capBody({
    head,
    main: shown && main.startsWith(shown) ? main.slice(shown.length).trim() : main,
    tail,
  }).body;
}

export function driftResolvedComment(plan: Plan, now: Date): string {
  return `No drift left on ${codeSpan(plan.dashboard.url)} at ${now.toISOString()} (plan ${codeSpan(plan.id.slice(0, 12))} has no actions). Closing.`;
}
