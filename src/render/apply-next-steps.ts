import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { type ActionOutcome, OUTCOME_CODES } from '../types.js';

/**
 * What to do after an apply that ran to its end with actions that failed or were not confirmed.
 * Such a run is finished, so `apply --resume` has nothing to take up: each class of failure
 * gets its own step, all of which end in a fresh plan, since a plan made now holds only what is
 * still needed and never repeats what was done.
 */

/** The dashboard could not be asked at all, or would not let this user: nothing ran on the site. */
const ACCESS: readonly ErrorCode[] = ['AUTH_FAILED', 'FORBIDDEN'];
/** The session's read budget ran out. */
const BUDGET: readonly ErrorCode[] = ['RESOURCE_EXHAUSTED'];
/** Not confirmed either way: the call's answer was lost, or the re-read saw otherwise. */
const UNCONFIRMED = new Set<string>(['NOT_PERSISTED', 'NOT_APPLIED', 'NOT_REPORTED']);

const ours = new Set<string>([...ERROR_CODES, ...OUTCOME_CODES]);

type FailureClass = 'site' | 'access' | 'budget' | 'dashboard' | 'unconfirmed';

function classOf(outcome: ActionOutcome): FailureClass | undefined {
  const code = outcome.code ?? '';
  if (outcome.status === 'failed') {
    if (UNCONFIRMED.has(code)) return 'unconfirmed';
    if ((ACCESS as readonly string[]).includes(code)) return 'access';
    if ((BUDGET as readonly string[]).includes(code)) return 'budget';
    // A code of the dashboard's own (`svc_update_failed`): the site answered that it failed.
    return ours.has(code) ? 'dashboard' : 'site';
  }
  // Not started because the run stopped on a refusal or the budget (holds are not failures).
  if (outcome.status === 'blocked' && (ACCESS as readonly string[]).includes(code)) return 'access';
  if (outcome.status === 'blocked' && (BUDGET as readonly string[]).includes(code)) return 'budget';
  return outcome.unverified ? 'unconfirmed' : undefined;
}

const STEP: Record<FailureClass, (count: number) => string> = {
  site: (n) =>
    `${n} update(s) failed on the site itself (the dashboard's code above): check those sites in the dashboard (child connection, update log, disk), then \`svc-gitops plan\` and apply again; to stop trying an update, hold it in the desired state.`,
  access: (n) =>
    `${n} action(s) were refused to this dashboard user: use a user (SVC_USER, SVC_APP_PASSWORD) that may change ignores and run updates, then \`svc-gitops plan\` and apply again.`,
  budget: (n) =>
    `${n} action(s) did not run: the run read as much as SVC_MAX_SESSION_DATA allows; raise it (or unset it), then \`svc-gitops plan\` and apply again.`,
  dashboard: (n) =>
    `${n} call(s) failed at the dashboard (the codes above; a timeout, a 5xx or a dropped connection): run \`svc-gitops plan\` and apply again once it answers; the new plan holds only what is still needed.`,
  unconfirmed: (n) =>
    `${n} action(s) were not confirmed by the dashboard: \`svc-gitops plan --refresh\` (the dashboard syncs its sites first) shows whether they took; apply what it still lists.`,
};

/** One step per class of failure in the run, most actionable first; undefined when none failed. */
export function failureNextSteps(outcomes: readonly ActionOutcome[]): string | undefined {
  const counts = new Map<FailureClass, number>();
  for (const outcome of outcomes) {
    const failure = classOf(outcome);
    if (failure) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  }
  const order: FailureClass[] = ['access', 'budget', 'site', 'dashboard', 'unconfirmed'];
  const steps = order
    .filter((failure) => counts.has(failure))
    .map((failure) => STEP[failure](counts.get(failure) ?? 0));
  if (steps.length === 0) return undefined;
  return `Next (the run finished, so there is nothing for \`apply --resume\`):\n${steps.map((step) => `- ${step}`).join('\n')}`;
}
