import type { Diagnostic } from '../errors.js';
import type { Plan } from '../types.js';
import { type ChangeView, changeMarkdown } from './change-markdown.js';
import { type CappedBody, capBody, DEFAULT_BODY_BUDGET } from './comment-budget.js';
import { codeSpan, escapeMarkdown, linkTarget } from './markdown-escape.js';
import { haltMarkdown } from './rollout-halt.js';

/**
 * The sticky PR comment: marker and a line naming the config, the rendered plan (which carries
 * the summary, plan id and dashboard), and a footer with the full plan id, the artifact that holds
 * the JSON plan, and the commit and time. Only the rendered plan is ever cut to fit, so the marker
 * (which finds the comment again) and the artifact link always survive.
 */
export interface ArtifactRef {
  name: string;
  /** Where the artifact can be downloaded (the artifact or the run page). */
  url?: string;
}

/** A refusal the apply after the merge would make, worded by the front end. */
export interface CommentRefusal {
  code: string;
  message: string;
  /** How to fix it (trusted text from the front end, escaped here like the message). */
  fix?: string;
}

export interface PlanCommentInput {
  marker: string;
  configKey: string;
  plan: Plan;
  /** Shown at the top, under the halt line: the reviewer learns it before the merge. */
  refusals?: CommentRefusal[];
  /** What the pull request changes against its base: shown under the title, before the plan. */
  change?: ChangeView;
  artifact: ArtifactRef;
  commitSha?: string;
  now: Date;
}

export interface CommentFrame {
  head: string;
  tail: string;
  /** Characters left for the rendered plan (pass it to the renderer as its cap). */
  room: number;
}

/**
 * Marker, halt line, refusals, the one title and what this change does above the plan; artifact
 * link and time stamp below it. The head is never cut, so the change is always shown.
 */
export function planCommentFrame(input: PlanCommentInput): CommentFrame {
  const halt = input.plan.rollout_halt ? `${haltMarkdown(input.plan.rollout_halt)}\n\n` : '';
  const change = input.change ? `${changeMarkdown(input.change).join('\n')}\n\n` : '';
  const head = `${input.marker}\n${halt}${refusalBlock(input.refusals ?? [])}**svc-gitops** plan for config ${codeSpan(input.configKey)}\n\n${change}`;
  const tail = `\n\n---\n${artifactLine(input.artifact, input.plan.id)}\n${stamp(input.now, input.commitSha)}\n`;
  return { head, tail, room: DEFAULT_BODY_BUDGET - head.length - tail.length };
}

/** Trusted markdown naming the artifact, for the renderer's truncation note. */
export function artifactHint(artifact: ArtifactRef): string {
  return `the ${codeSpan(artifact.name)} artifact of this workflow run`;
}

/** The comment shown instead of a plan when the desired state does not validate. */
export function validationComment(
  input: Omit<PlanCommentInput, 'plan' | 'artifact'> & { diagnostics: Diagnostic[] },
  toRepoPath: (file: string) => string,
): CappedBody {
  const errors = input.diagnostics.filter((d) => d.severity === 'error').length;
  const head =
    `${input.marker}\n**svc-gitops** plan for config ${codeSpan(input.configKey)}\n\n` +
    `**No plan:** the desired state has ${errors} error${errors === 1 ? '' : 's'}. Fix ${errors === 1 ? 'it' : 'them'} and push again.\n\n`;
  const main = input.diagnostics
    .map((d) => {
      const where = d.file
        ? `${codeSpan(`${toRepoPath(d.file)}${d.line ? `:${d.line}` : ''}${d.col ? `:${d.col}` : ''}`)} `
        : '';
      const hint = d.hint ? ` (hint: ${escapeMarkdown(d.hint, Infinity)})` : '';
      return `- **${d.severity}** ${where}${escapeMarkdown(d.message, Infinity)}${hint}`;
    })
    .join('\n');
  return capBody({ head, main, tail: `\n\n${stamp(input.now, input.commitSha)}\n` });
}

/**
 * The comment shown instead of a plan when planning failed for another reason (the dashboard
 * could not be read, refused the credentials, …): the previous push's plan must not stay up as
 * if it were this commit's.
 */
export function planFailedComment(
  input: Omit<PlanCommentInput, 'plan' | 'artifact'> & {
    failure: { code: string; message: string; hint?: string };
  },
): CappedBody {
  const { code, message, hint } = input.failure;
  const head =
    `${input.marker}\n**svc-gitops** plan for config ${codeSpan(input.configKey)}\n\n` +
    `**No plan:** planning failed (${codeSpan(code)}). Run the workflow again once it is fixed.\n\n`;
  const main = `- ${escapeMarkdown(message, Infinity)}${hint ? ` (hint: ${escapeMarkdown(hint, Infinity)})` : ''}`;
  return capBody({ head, main, tail: `\n\n${stamp(input.now, input.commitSha)}\n` });
}

function artifactLine(artifact: ArtifactRef, planId: string): string {
  const target = artifact.url ? linkTarget(artifact.url) : undefined;
  const where = target ? ` ([download](${target}))` : '';
  return (
    `Full JSON plan: artifact ${codeSpan(artifact.name)}${where}, plan id ${codeSpan(planId)}. ` +
    'On merge, `svc-gitops apply --reviewed` runs only actions that are in this plan.'
  );
}

function stamp(now: Date, sha: string | undefined): string {
  const time = `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<sub>Updated ${time}${sha ? ` for ${codeSpan(sha.slice(0, 7))}` : ''} by svc-gitops.</sub>`;
}

/** The caution block naming each refusal of the merge-time apply, with its fix. */
function refusalBlock(refusals: readonly CommentRefusal[]): string {
  if (refusals.length === 0) return '';
  const lines = ['> [!CAUTION]', '> **The apply after the merge would refuse this plan:**'];
  for (const refusal of refusals) {
    const fix = refusal.fix ? ` Fix: ${escapeMarkdown(refusal.fix, Infinity)}` : '';
    lines.push(`> - ${codeSpan(refusal.code)} ${escapeMarkdown(refusal.message, 600)}.${fix}`);
  }
  return `${lines.join('\n')}\n\n`;
}
