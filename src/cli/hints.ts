import type { SvcError } from '../errors.js';

/**
 * The CLI's words for the engine's refusals: the engine says what happened (a code, and data with
 * a `reason`), each front end says what to do about it. An error that carries its own hint keeps it.
 */
const HINTS: Record<string, string> = {
  'rollout-state-unwritable':
    'the rollout state lives beside the desired state: make that directory writable',
  'rollout-state-locked':
    'another svc-gitops run is recording the rollout state: wait for it; if no run is left, delete the .lock file named above',
  'resume-while-unhealthy':
    'fix the sites and run `svc-gitops apply --resume` again, or continue anyway with `--override-health`',
};

export function cliHint(error: SvcError): string | undefined {
  if (error.hint !== undefined) return error.hint;
  const reason = error.details.reason;
  return typeof reason === 'string' ? HINTS[reason] : undefined;
}
