import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';
import { summarise } from '../plan/index.js';
import type { LiveState, Plan } from '../types.js';
import { type ApprovalDecision, decidingSync, type Planned } from './decision.js';
import { lastUnfinishedRun, readJournal, type UnfinishedRun } from './journal.js';
import type { StatePaths } from './state-dir.js';
import { resumeSubset } from './subset.js';
import { inEffectIn } from './verify.js';
import { healthOf, heldBackIn, planLimits, waveLimits } from './wave-limits.js';

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
      throw nothingToResume();
    }
    if (unfinished.desiredDigest !== planned.desired.digest) {
      throw new SvcError(
        'PREVIEW_REQUIRED',
        'the desired-state files changed since the interrupted apply started',
        { details: { reason: 'resume-config-changed' } },
      );
    }
    const subset = resumeSubset(planned.plan, unfinished.actions);
    return {
      kind: 'approved',
      approval: 'resume',
      plan: planned.plan,
      maxFailures: waveLimits(planned.desired),
      ...healthOf(planned.desired),
      capabilities: planned.live.capabilities,
      pending: planned.live.pending,
      ...(subset.heldBack ? { heldBack: subset.heldBack } : {}),
      warnings:
        unfinished.inDoubtCalls > 0
          ? [
              `${unfinished.inDoubtCalls} call(s) of the interrupted run got no recorded answer; the fresh read decided what is left`,
            ]
          : [],
    };
  });
}

export interface JournalResumeOptions {
  fs: typeof nodeFs;
  paths: StatePaths;
  /** The live state read now: what is already in effect is not sent again. */
  live: LiveState;
  now: Date;
}

/**
 * `apply --resume` with no desired state at hand (an interrupted `apply PLANFILE` in CI, where
 * only the plan file was): the approval is the interrupted run's own action list from the
 * journal, with the wave thresholds it ran with; actions the fresh read shows in effect are
 * skipped, the rest run. Nothing outside that list can run: there is no plan made now.
 */
export function approveResumeFromJournal(options: JournalResumeOptions): ApprovalDecision {
  return decidingSync(() => {
    const unfinished = lastUnfinishedRun(readJournal(options.fs, options.paths.journal));
    if (!unfinished) throw nothingToResume();
    const inEffect = inEffectIn(options.live);
    const plan = journalPlan(unfinished, options.now);
    const carried = planLimits(plan);
    const heldBack = heldBackIn(plan.actions, (action) =>
      inEffect(action)
        ? {
            status: 'skipped',
            code: 'ALREADY_DONE',
            message: 'already in effect when the resume read the dashboard',
          }
        : undefined,
    );
    return {
      kind: 'approved',
      approval: 'resume',
      plan,
      maxFailures: carried ?? waveLimits(undefined),
      capabilities: options.live.capabilities,
      ...(heldBack ? { heldBack } : {}),
      warnings: inDoubtWarnings(unfinished.inDoubtCalls),
    };
  });
}

/** The interrupted run as a plan: its actions, id, dashboard, desired-state digest and thresholds. */
function journalPlan(unfinished: UnfinishedRun, now: Date): Plan {
  const at = now.toISOString();
  return {
    format_version: 3,
    id: unfinished.planId,
    created_at: at,
    expires_at: at,
    dashboard: { url: unfinished.dashboard },
    desired_digest: unfinished.desiredDigest,
    actions: unfinished.actions,
    fingerprints: {},
    notes: [],
    summary: summarise(unfinished.actions),
    needs_approval: false,
    ...(unfinished.waveLimits === undefined ? {} : { wave_limits: unfinished.waveLimits }),
    ...(unfinished.gates === undefined ? {} : { gates: unfinished.gates }),
  };
}

/** Whether the journal of `paths` holds an interrupted run. */
export function hasUnfinishedRun(fs: typeof nodeFs, paths: StatePaths): UnfinishedRun | undefined {
  return lastUnfinishedRun(readJournal(fs, paths.journal));
}

function nothingToResume(): SvcError {
  return new SvcError('PREVIEW_REQUIRED', 'there is no interrupted apply to resume for this dashboard', {
    details: { reason: 'nothing-to-resume' },
  });
}

function inDoubtWarnings(calls: number): string[] {
  return calls > 0
    ? [`${calls} call(s) of the interrupted run got no recorded answer; the fresh read decided what is left`]
    : [];
}
