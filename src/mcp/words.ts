import type { SvcError } from '../errors.js';
import { settingVariable } from '../settings/index.js';

/**
 * The tool server's words for the engine's refusals: the engine says what happened (a code, and
 * data with a `reason`); here it is said in this server's terms (its tools, its variables: SVC_*,
 * or NAME_* under --namespace) with what to do about it. The CLI's are cli/hints.ts. A refusal
 * without a reason listed here keeps its message and hint.
 */
type Words = (error: SvcError, product: string) => { message?: string; hint?: string };

const replan = (product: string) =>
  `call ${product}_plan again, show the new plan to the user, and apply with its new token`;

/** The missing half of a login, said with this server's variables. */
function credentials(error: SvcError, product: string): { message?: string; hint: string } {
  const [user, password, token] = (['username', 'applicationPassword', 'token'] as const).map((key) =>
    settingVariable(key, product),
  );
  const set = error.details.set;
  const message =
    set === 'username'
      ? `a username is set (${user} or the settings file) but no application password (and no REST token)`
      : set === 'applicationPassword'
        ? `an application password is set (${password} or the settings file) but no username (and no REST token)`
        : undefined;
  return {
    ...(message ? { message } : {}),
    hint: `set ${user} and ${password} (the abilities API), or ${token} (REST API v2 only) in the tool server's environment; or username, applicationPassword, token in settings.json`,
  };
}

const WORDS: Record<string, Words> = {
  'no-dashboard': (_, product) => ({
    hint: `set ${settingVariable('dashboardUrl', product)} and credentials in the tool server's environment (or dashboardUrl in settings.json)`,
  }),
  'no-credentials': credentials,
  'journal-unwritable': () => ({ hint: 'make the journal writable again (free space on its disk)' }),
  'history-unwritable': (_, product) => ({
    hint: `make the history file writable, or set ${settingVariable('historyFile', product)} to another path`,
  }),
  // SVC_GITOPS_* are variables of svc-gitops itself: the server reads them under these names.
  'lock-dir-unwritable': () => ({
    hint: 'set SVC_GITOPS_LOCK_DIR (or XDG_STATE_HOME) to a writable directory',
  }),
  'state-dir-unwritable': () => ({ hint: 'set SVC_GITOPS_STATE_DIR to a writable directory' }),
  'plan-edited': (_, product) => ({ hint: replan(product) }),
  'live-changed': (_, product) => ({ hint: replan(product) }),
  'plan-used': (_, product) => ({ hint: replan(product) }),
  'plan-expired': (_, product) => ({
    hint: `${replan(product)} (the lifetime is the setting planLifetimeMinutes, ${settingVariable('planLifetimeMinutes', product)})`,
  }),
  'other-dashboard': (_, product) => ({
    hint: `point ${settingVariable('dashboardUrl', product)} at the plan’s dashboard, or plan again against this one`,
  }),
  'desired-invalid': (_, product) => ({
    hint: `fix them; ${product}_validate lists every problem with its file:line:col and a hint`,
  }),
  'safe-mode': (_, product) => ({
    hint: `to allow core and major-version updates set \`safeMode: false\` in the settings file or ${settingVariable('safeMode', product)}=false`,
  }),
  'unknown-names': (_, product) => ({
    hint: `correct the names in the desired state and plan again (strict is on: ${settingVariable('strict', product)})`,
  }),
  'previewed-at': (_, product) => ({
    hint: `a plan made with \`at\` shows what the gates allow then; to apply, call ${product}_plan without \`at\` and apply that plan`,
  }),
  'rollout-state-unwritable': () => ({
    hint: 'the rollout state lives beside the desired state: the tool server must be able to write that directory',
  }),
  'rollout-state-locked': () => ({
    hint: 'another svc-gitops run is recording the rollout state: wait for it and call again',
  }),
};

export function toolWords(error: SvcError, product: string): { message: string; hint: string | undefined } {
  const reason = error.details.reason;
  const words = typeof reason === 'string' ? (WORDS[reason]?.(error, product) ?? {}) : {};
  return { message: words.message ?? error.message, hint: words.hint ?? error.hint };
}
