import { stoppingWave, UNHEALTHY_NEXT_STEP } from './apply-health.js';
import { failureNextSteps } from './apply-next-steps.js';
import {
  type ApplyReport,
  countStatuses,
  countUnverified,
  type StatusCounts,
  unreachableNextStep,
} from './apply-report.js';

/**
 * How an apply run ended, worked out once for the text and markdown reports: they word it
 * differently but must never disagree on the counts, why the run stopped, or the next step.
 */
export interface ApplyEnding {
  counts: StatusCounts;
  /** Outcomes reported done, and updates skipped as done earlier, that no re-read confirmed. */
  unverifiedDone: number;
  unverifiedSkipped: number;
  /** Why the run stopped before its end; absent when it ran every action. */
  stopped?:
    | { reason: 'interrupted' }
    | { reason: 'unreachable' }
    | { reason: 'unhealthy'; wave: string }
    | { reason: 'gate'; message: string };
  /** The command to run next (a code span in both formats); absent when there is none. */
  nextStep?: string;
  /** Unhealthy sites the health checks found in waves that stayed within their allowance. */
  unhealthyWithin: number;
}

/**
 * The next steps that name a front end's own command or tool: each front end passes its words;
 * the CLI's (CLI_NEXT_STEPS) are the default of `svc-gitops apply`'s reports.
 */
export interface NextStepWords {
  /** After a closed gate: how to apply what is left once it opens. */
  gateClosed: string;
}

export const CLI_NEXT_STEPS: NextStepWords = {
  gateClosed:
    'Apply again once it opens: `svc-gitops apply` plans what is left, and nothing is sent while the gate is shut.',
};

export function applyEnding(report: ApplyReport, words: NextStepWords = CLI_NEXT_STEPS): ApplyEnding {
  const { result } = report;
  const outcomes = result.outcomes;
  const ending: ApplyEnding = {
    counts: countStatuses(outcomes),
    unverifiedDone: countUnverified(outcomes, 'done'),
    unverifiedSkipped: countUnverified(outcomes, 'skipped'),
    unhealthyWithin: (result.health ?? [])
      .filter((entry) => !entry.stopped)
      .reduce((n, entry) => n + entry.unhealthy.length, 0),
  };
  const unhealthy = stoppingWave(result);
  if (result.interrupted) {
    ending.stopped = { reason: 'interrupted' };
    ending.nextStep = 'Run `svc-gitops apply --resume` to finish the remaining actions.';
  } else if (report.unreachable) {
    ending.stopped = { reason: 'unreachable' };
    ending.nextStep = unreachableNextStep(outcomes);
  } else if (report.gateClosed) {
    ending.stopped = { reason: 'gate', message: report.gateClosed.message };
    ending.nextStep = words.gateClosed;
  } else if (unhealthy) {
    ending.stopped = { reason: 'unhealthy', wave: unhealthy.wave ?? '(default)' };
    ending.nextStep = UNHEALTHY_NEXT_STEP;
  } else {
    const steps = failureNextSteps(outcomes);
    if (steps) ending.nextStep = steps;
  }
  return ending;
}
