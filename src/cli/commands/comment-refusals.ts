import { type ReviewRefusal, refusalsBeforeMerge } from '../../index.js';
import { type CommentRefusal, renderDiagnosticsGithub, safeText } from '../../render/index.js';
import type { Plan } from '../../types.js';
import type { CliContext } from '../context.js';
import { cliSettings } from '../pipeline.js';

/**
 * The CLI's side of the refusals the apply after the merge would meet (the engine's list,
 * src/engine/merge-refusals.ts): each with its fix in the CLI's words, which of them fail the
 * check, and their annotations.
 */

/**
 * How to fix each refusal of the merge-time apply, in this front end's words. The check fails
 * (exit 1) only for what the pull request itself can fix and strict asks to refuse: names the
 * dashboard does not know. It stays neutral (exit 0) for the rest: safe mode is a setting of the
 * apply job, a halt and a closed gate are states of the fleet and the clock, none of which a
 * pull request can change; the comment, the step summary and an annotation say them first.
 */
const REFUSAL_FIXES: Record<ReviewRefusal['code'], string> = {
  SAFE_MODE_BLOCKED:
    'after review, run the apply job with SVC_SAFE_MODE=false (or safeMode: false in its settings file), or hold the core and major updates in the YAML',
  ROLLOUT_HALTED:
    'fix the unhealthy sites: the next health check releases the held waves (or apply with --override-health)',
  UNKNOWN_NAMES:
    'correct the names in the YAML (each line says the closest name the dashboard knows), then push again',
  GATE_CLOSED:
    'nothing to do if that is intended: the scheduled rollout applies them once the gate opens (`svc-gitops plan --at TIME` shows when); else change the window, soak time or wave in the YAML',
};

/** Refusals that fail the check: those the pull request can fix. */
export function failsCheck(refusal: { code: string }): boolean {
  return refusal.code === 'UNKNOWN_NAMES';
}

/** Each refusal on stderr: an error when it fails the check, else a warning. */
export function warnRefusals(ctx: CliContext, refusals: readonly CommentRefusal[]): void {
  for (const refusal of refusals) {
    const level = failsCheck(refusal) ? 'error' : 'warning';
    ctx.stderr.write(
      `svc-gitops: ${level}: the apply after the merge would refuse this plan (${refusal.code}): ${safeText(refusal.message)}\n`,
    );
  }
}

/** One annotation per refusal, on the check of the workflow run. */
export function refusalAnnotations(refusals: readonly CommentRefusal[]): string {
  return renderDiagnosticsGithub(
    refusals.map((refusal) => ({
      severity: failsCheck(refusal) ? 'error' : 'warning',
      rule: refusal.code,
      message: `the apply after the merge would refuse this plan: ${refusal.message}`,
      ...(refusal.fix ? { hint: refusal.fix } : {}),
    })),
  );
}

/** The refusal with its fix, as the comment shows it. */
export function withFix(refusal: ReviewRefusal): CommentRefusal {
  return { ...refusal, fix: REFUSAL_FIXES[refusal.code] };
}

/**
 * A saved plan posted as it is: what the plan itself shows (safe mode against its high-risk
 * actions, a halt, updates waiting on a gate) leads its comment as a plan made now does. Names
 * are not judged (that needs the dashboard): the plan that was saved was judged when it was made.
 */
export function savedPlanRefusals(ctx: CliContext, plan: Plan): CommentRefusal[] {
  const { safeMode } = cliSettings(ctx);
  return refusalsBeforeMerge(plan, { safeMode, strict: false }).map(withFix);
}
