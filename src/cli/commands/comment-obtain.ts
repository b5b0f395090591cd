import { resolve } from 'node:path';
import { loadDesiredState, verifyPlanId } from '../../engine/index.js';
import { type Diagnostic, isSvcError, SvcError } from '../../errors.js';
import { readPlanFile, type SessionPlan } from '../../index.js';
import type { ChangeView, CommentRefusal } from '../../render/index.js';
import type { LiveState, Plan } from '../../types.js';
import { compareOrExplain } from '../compare-to.js';
import type { CliContext } from '../context.js';
import { cliSession } from '../pipeline.js';
import type { CommentFlags } from './comment-flags.js';
import { savedPlanRefusals, withFix } from './comment-refusals.js';

/** What the comment shows: a plan, the desired state's problems, or why planning failed. */
export type Obtained =
  | {
      plan: Plan;
      live?: LiveState;
      refusals?: CommentRefusal[];
      change?: ChangeView;
      /** The failOnVulnerable setting, for a plan made now (a saved plan's check never fails on it). */
      failOnVulnerable?: boolean;
    }
  | { diagnostics: Diagnostic[] }
  /** Planning failed for another known reason: the comment says so, then the error is reported. */
  | { failed: SvcError };

/** The plan to comment: the saved one (`--plan-file`) or one made now through the session. */
export async function obtainPlan(
  ctx: CliContext,
  flags: CommentFlags,
  configPath: string,
): Promise<Obtained> {
  if (flags.planFile) return savedPlan(ctx, flags, flags.planFile);
  try {
    const session = cliSession(ctx, { quiet: flags.quiet });
    let planned: SessionPlan;
    try {
      planned = await session.plan({ config: configPath, strict: flags.strict });
    } finally {
      await session.close();
    }
    const change =
      flags.compareTo === undefined
        ? undefined
        : await compareOrExplain(ctx, planned, session.settings().planLifetimeMinutes, flags.compareTo);
    const refusals = planned.refusals.map(withFix);
    const { failOnVulnerable } = session.settings();
    return {
      plan: planned.plan,
      live: planned.live,
      refusals,
      failOnVulnerable,
      ...(change ? { change } : {}),
    };
  } catch (error) {
    // A bug, or an interrupt, is reported as it is; a known failure also replaces the comment.
    if (!isSvcError(error) || error.code === 'INTERRUPTED') throw error;
    if (error.code !== 'CONFIG_INVALID') return { failed: error };
    // Load again only on this failure path, for the located diagnostics the comment lists.
    const { diagnostics } = await loadDesiredState({
      path: configPath,
      fs: ctx.fs,
      cwd: ctx.cwd,
      signal: ctx.signal,
    });
    if (!diagnostics.some((d) => d.severity === 'error')) throw error;
    return { diagnostics };
  }
}

/** A saved plan, posted as `svc-gitops plan --out` wrote it: a changed file is refused. */
function savedPlan(ctx: CliContext, flags: CommentFlags, planFile: string): Obtained {
  if (flags.out)
    throw new SvcError('USAGE', '--out saves a plan made now; it cannot be used with --plan-file');
  if (flags.compareTo !== undefined)
    throw new SvcError(
      'USAGE',
      '--compare-to plans the base on a live read made now; it cannot be used with --plan-file',
    );
  const plan = readPlanFile(ctx.fs, resolve(ctx.cwd, planFile));
  if (!verifyPlanId(plan)) {
    throw new SvcError(
      'PLAN_INVALID',
      `${planFile} does not match its plan id: it was changed after planning`,
      {
        hint: 'comment the file exactly as `svc-gitops plan --out FILE` wrote it',
      },
    );
  }
  return { plan, refusals: savedPlanRefusals(ctx, plan) };
}
