/**
 * The base's plan for a pull request: the desired state at the merge base of `ref` and HEAD
 * (read from git), planned against the head's live read with the head's clock, targets and
 * rollout state, so the two plans differ only by what the pull request changed. No dashboard
 * call is made: the live state is the one the head was planned from.
 */
import * as nodeFs from 'node:fs';
import { loadDesiredState } from '../config/index.js';
import { SvcError } from '../errors.js';
import { readBaseConfig } from '../git/index.js';
import { createPlan } from '../plan/index.js';
import { type ChangeView, comparePlans, countDiagnostics } from '../render/index.js';
import type { LiveState, Plan, PlanRollout } from '../types.js';

export interface CompareToBaseOptions {
  /** The head's working directory and config path (file or directory), as it was loaded. */
  cwd: string;
  configPath: string;
  /** The base: a branch, tag or commit; its merge base with HEAD is read. */
  ref: string;
  /** The head's plan and what it was made from. */
  head: Plan;
  live: LiveState;
  lifetimeMinutes: number;
  targetSiteIds?: number[] | undefined;
  rollout?: PlanRollout | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * The change view of a pull request: the comparison of the base's plan with the head's. Throws
 * IO_ERROR when git cannot give the base (no merge base in a shallow clone, an unknown ref) and
 * CONFIG_INVALID when the base's desired state does not validate.
 */
export async function compareToBase(options: CompareToBaseOptions): Promise<ChangeView> {
  const base = await readBaseConfig({
    cwd: options.cwd,
    configPath: options.configPath,
    ref: options.ref,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const { head } = options;
    if (!base.exists) {
      const empty: Plan = { ...head, actions: [], desired_digest: '' };
      return { comparison: comparePlans(empty, head), ref: base.ref, commit: base.commit, added: true };
    }
    const { desired, diagnostics } = await loadDesiredState({
      path: base.configPath,
      fs: nodeFs,
      cwd: base.cwd,
      signal: options.signal,
    });
    if (!desired) {
      const { errors } = countDiagnostics(diagnostics);
      throw new SvcError(
        'CONFIG_INVALID',
        `the desired state at ${options.ref} (${base.commit.slice(0, 7)}) has ${errors} error(s)`,
      );
    }
    const plan = createPlan(desired, options.live, {
      now: new Date(head.created_at),
      lifetimeMinutes: options.lifetimeMinutes,
      ...(options.targetSiteIds === undefined ? {} : { targetSiteIds: options.targetSiteIds }),
      ...(options.rollout === undefined ? {} : { rollout: options.rollout }),
    });
    return { comparison: comparePlans(plan, head), ref: base.ref, commit: base.commit };
  } finally {
    base.dispose();
  }
}
