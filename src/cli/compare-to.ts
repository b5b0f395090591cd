import { type ChangeView, compareToBase, isSvcError, type SessionPlan } from '../index.js';
import { safeText } from '../render/index.js';
import type { CliContext } from './context.js';
import { cliWords } from './hints.js';

/** What the comparison needs of the session's plan: the plan and what it was made from. */
export type PlannedHead = Pick<SessionPlan, 'plan' | 'live' | 'configPath' | 'targetSiteIds' | 'rollout'>;

/**
 * `--compare-to REF`: the base's plan made from the head's live read (no dashboard call) and
 * compared with the head's. A plan or comment of a pull request is reviewed by this difference.
 */
export function compareWithBase(
  ctx: CliContext,
  head: PlannedHead,
  lifetimeMinutes: number,
  ref: string,
): Promise<ChangeView> {
  return compareToBase({
    cwd: ctx.cwd,
    configPath: head.configPath,
    ref,
    head: head.plan,
    live: head.live,
    lifetimeMinutes,
    targetSiteIds: head.targetSiteIds,
    rollout: head.rollout,
    signal: ctx.signal,
  });
}

/**
 * The comparison for a comment: a base that cannot be read (a shallow clone, a base whose desired
 * state does not validate) leaves the comment showing the whole plan, with the reason at its
 * top and a warning on stderr; an interrupt or a bug is thrown.
 */
export async function compareOrExplain(
  ctx: CliContext,
  head: PlannedHead,
  lifetimeMinutes: number,
  ref: string,
): Promise<ChangeView> {
  try {
    return await compareWithBase(ctx, head, lifetimeMinutes, ref);
  } catch (error) {
    if (!isSvcError(error) || error.code === 'INTERRUPTED') throw error;
    const { message, hint } = cliWords(error);
    const reason = hint ? `${message}; ${hint}` : message;
    ctx.stderr.write(
      `svc-gitops: warning: cannot compare with ${safeText(ref)}, the comment shows the whole plan: ${safeText(reason, 600)}\n`,
    );
    return { unavailable: reason, ref };
  }
}
