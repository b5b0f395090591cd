import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';
import { type ApprovalDecision, decidingSync, type Planned } from './decision.js';
import { lastUnfinishedRun, readJournal } from './journal.js';
import type { StatePaths } from './state-dir.js';
import { resumeSubset } from './subset.js';
import { waveLimits } from './wave-limits.js';

export interface ResumeApprovalOptions {
  fs: typeof nodeFs;
  /** The apply records of this dashboard and config (`statePaths`). */
  paths: StatePaths;
}

/**
 * `apply --resume`: the approval is the interrupted run's own action list, read from the
 * journal. The plan made now runs only as far as that list covers it, and only while the
 * desired-state files are the ones that run started from.
 */
export function approveResume(planned: Planned, options: ResumeApprovalOptions): ApprovalDecision {
  return decidingSync(() => {
    const unfinished = lastUnfinishedRun(readJournal(options.fs, options.paths.journal));
    if (!unfinished) {
      throw new SvcError(
        'PREVIEW_REQUIRED',
        'there is no interrupted apply to resume for this dashboard and config',
        { hint: 'run `svc-gitops apply` to plan and apply' },
      );
    }
    if (unfinished.desiredDigest !== planned.desired.digest) {
      throw new SvcError(
        'PREVIEW_REQUIRED',
        'the desired-state files changed since the interrupted apply started',
        {
          hint: 'resume only finishes what was approved; run `svc-gitops apply` to plan and approve the new state',
        },
      );
    }
    const subset = resumeSubset(planned.plan, unfinished.actions);
    return {
      kind: 'approved',
      approval: 'resume',
      plan: planned.plan,
      maxFailures: waveLimits(planned.desired),
      capabilities: planned.live.capabilities,
      pending: planned.live.pending,
      holdBack: subset.holdBack,
      warnings:
        unfinished.inDoubtCalls > 0
          ? [
              `${unfinished.inDoubtCalls} call(s) of the interrupted run got no recorded answer; the fresh read decided what is left`,
            ]
          : [],
    };
  });
}
