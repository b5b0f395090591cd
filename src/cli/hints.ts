import type { SvcError } from '../errors.js';

/**
 * The CLI's words for the engine's refusals: the engine says what happened (a code, and data
 * with a `reason`), each front end says it in its own terms (its flags) and what to do about it.
 * A refusal without a reason keeps its message and hint.
 */
type Words = (error: SvcError) => { message?: string; hint?: string };

/** The engine names a target as `target X`; the CLI's flag is `--target`. */
const flagged = (error: SvcError) => error.message.replace(/^target /, '--target ');

/** How to plan again after a saved plan is refused. */
const REPLAN = 'run `svc-gitops plan --out FILE` again, review it, and apply the new file';

/** The missing half of a login, said with the CLI's variables. */
const CREDENTIALS: Record<string, string> = {
  username:
    'a username is set (SVC_USER or the settings file) but no application password (and no REST token)',
  applicationPassword:
    'an application password is set (SVC_APP_PASSWORD or the settings file) but no username (and no REST token)',
};

const WORDS: Record<string, Words> = {
  'journal-unwritable': () => ({
    hint: 'make the journal writable again (free space on its disk); `svc-gitops apply --resume` then finishes a run that had started',
  }),
  'history-unwritable': () => ({
    hint: 'make the history file writable, or set SVC_HISTORY_FILE to another path',
  }),
  'lock-dir-unwritable': () => ({
    hint: 'set SVC_GITOPS_LOCK_DIR (or XDG_STATE_HOME) to a writable directory',
  }),
  'state-dir-unwritable': () => ({ hint: 'set SVC_GITOPS_STATE_DIR to a writable directory' }),
  'no-dashboard': () => ({
    hint: 'set SVC_URL and credentials (or dashboardUrl in settings.json); to try svc-gitops without a dashboard run `svc-gitops sandbox` and use the SVC_* lines it prints',
  }),
  'no-credentials': (error) => ({
    ...(typeof error.details.set === 'string' ? { message: CREDENTIALS[error.details.set] } : {}),
    hint: 'set SVC_USER and SVC_APP_PASSWORD (the abilities API), or SVC_TOKEN (REST API v2 only); or username, applicationPassword, token in settings.json',
  }),
  'plan-file-unreadable': () => ({ hint: 'save a plan with `svc-gitops plan --out FILE` (format json)' }),
  'plan-file-not-json': () => ({ hint: 'apply takes the JSON plan written by `svc-gitops plan --out FILE`' }),
  'plan-file-schema': () => ({
    hint: 'apply takes the JSON plan written by `svc-gitops plan --out FILE`, unedited: plan again',
  }),
  'plan-edited': () => ({ hint: REPLAN }),
  'live-changed': () => ({ hint: REPLAN }),
  'plan-expired': () => ({
    hint: `${REPLAN} (the lifetime is the setting planLifetimeMinutes, SVC_PLAN_LIFETIME_MINUTES)`,
  }),
  'plan-used': () => ({
    hint: 'run `svc-gitops plan --out FILE` again and apply the new plan, or `svc-gitops apply --resume` to finish an interrupted run',
  }),
  'other-dashboard': () => ({
    hint: 'point SVC_URL at the plan’s dashboard, or plan again against this one',
  }),
  'other-desired-state': () => ({
    hint: 'the merged config must be the reviewed one: re-run the plan on the pull request and review it again',
  }),
  'other-config-named': (error) => {
    const path = String(error.details.path);
    return {
      hint: `apply the plan file without -c (it carries everything it needs), or plan again from ${path}: svc-gitops plan -c ${path} --out plan.json`,
    };
  },
  'desired-invalid': (error) => ({
    hint: `fix them and check with \`svc-gitops validate -c ${String(error.details.path)}\``,
  }),
  'safe-mode': () => ({
    hint: 'to allow core and major-version updates set `safeMode: false` in the settings file or SVC_SAFE_MODE=false',
  }),
  'nothing-to-resume': () => ({
    hint: 'run `svc-gitops apply` to plan and apply (an interrupted run is looked for in the state directory of this run: pass the --state-dir it used)',
  }),
  'resume-config-changed': () => ({
    hint: 'resume only finishes what was approved; run `svc-gitops apply` to plan and approve the new state',
  }),
  'rollout-state-unwritable': () => ({
    hint: 'the rollout state lives beside the desired state: make that directory writable',
  }),
  'rollout-state-locked': () => ({
    hint: 'another svc-gitops run is recording the rollout state: wait for it; if no run is left, delete the .lock file named above',
  }),
  'resume-while-unhealthy': () => ({
    hint: 'fix the sites and run `svc-gitops apply --resume` again, or continue anyway with `--override-health`',
  }),
  'needs-person': () => ({
    message:
      'this plan needs a person’s approval (see its needs-approval notes); --auto-approve is not enough',
    hint: 'run apply at a terminal, or save the plan (`svc-gitops plan --out plan.json`), have it reviewed and run `svc-gitops apply plan.json`',
  }),
  'no-one-to-ask': () => ({
    hint: 'pass --auto-approve, set requireUserConfirmation: false, or apply a saved plan file',
  }),
  'target-matches-none': (error) => {
    const target = String(error.details.target);
    // `--target` takes every value after it: a plan file written after it lands here.
    return {
      message: flagged(error),
      ...(/\.json$/i.test(target)
        ? {
            hint: `--target takes every value after it: put the plan file first (svc-gitops apply ${target} …) or end the list with --`,
          }
        : {}),
    };
  },
  'target-names-many': (error) => {
    const ids = error.details.siteIds as number[] | undefined;
    return { message: flagged(error), hint: `give the site's ID instead (--target ${ids?.[0] ?? ''})` };
  },
};

export function cliWords(error: SvcError): { message: string; hint: string | undefined } {
  const reason = error.details.reason;
  const words = typeof reason === 'string' ? (WORDS[reason]?.(error) ?? {}) : {};
  return { message: words.message ?? error.message, hint: words.hint ?? error.hint };
}
