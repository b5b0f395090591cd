import { stoppingWave } from './apply-health.js';
import { failureNextSteps } from './apply-next-steps.js';
import {
  type ApplyReport,
  countNotStarted,
  countStatuses,
  countUnverified,
  type StatusCounts,
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
  /** After an interrupted run: how to finish what is left. */
  interrupted: string;
  /** After a run the dashboard stopped answering, with the number of actions not started. */
  unreachable: (notStarted: number) => string;
  /** After a wave's health check stopped the rollout. */
  unhealthy: string;
}

export const CLI_NEXT_STEPS: NextStepWords = {
  gateClosed:
    'Apply again once it opens: `svc-gitops apply` plans what is left, and nothing is sent while the gate is shut.',
  interrupted: 'Run `svc-gitops apply --resume` to finish the remaining actions.',
  unreachable: (notStarted) =>
    `Once the dashboard answers again, run \`svc-gitops apply --resume\` to finish the remaining actions (${notStarted} not started).`,
  unhealthy:
    'Fix the unhealthy sites, then run `svc-gitops apply --resume`: it continues once a new health check passes (or with `--override-health`).',
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
    ending.nextStep = words.interrupted;
  } else if (report.unreachable) {
    ending.stopped = { reason: 'unreachable' };
    ending.nextStep = words.unreachable(countNotStarted(outcomes));
  } else if (report.gateClosed) {
    ending.stopped = { reason: 'gate', message: report.gateClosed.message };
    ending.nextStep = words.gateClosed;
  } else if (unhealthy) {
    ending.stopped = { reason: 'unhealthy', wave: unhealthy.wave ?? '(default)' };
    ending.nextStep = words.unhealthy;
  } else {
    const steps = failureNextSteps(outcomes);
    if (steps) ending.nextStep = steps;
  }
  return ending;
}
