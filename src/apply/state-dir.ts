import { createHash } from 'node:crypto';
import type * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../errors.js';
import { normaliseDashboardUrl } from './dashboard-key.js';

/**
 * Where apply keeps its records: `<cwd>/.svc-gitops/` unless configured otherwise. The journal
 * is per dashboard, named by its normalised URL (so `localhost` and `127.0.0.1` share one), not
 * per config: one apply per dashboard runs at a time (the lock), and `apply --resume` finds what
 * an apply of a saved plan left, which had no config at hand. The lock is not here: it is per
 * dashboard and per user (lock-dir.ts), so another state directory never splits it.
 */

export const DEFAULT_STATE_DIR = '.svc-gitops';

/** The state directory an environment asks for (relative to the working directory); empty counts as unset. */
export function stateDirOf(env: Readonly<Record<string, string | undefined>>): string {
  return env.SVC_GITOPS_STATE_DIR || DEFAULT_STATE_DIR;
}

export interface StatePaths {
  dir: string;
  journal: string;
  usedPlans: string;
}

export function statePaths(stateDir: string, dashboardUrl: string): StatePaths {
  const key = createHash('sha256').update(normaliseDashboardUrl(dashboardUrl)).digest('hex').slice(0, 16);
  return {
    dir: stateDir,
    journal: join(stateDir, `journal-${key}.jsonl`),
    usedPlans: join(stateDir, 'used-plans'),
  };
}

export function ensureStateDir(fs: typeof nodeFs, paths: StatePaths): void {
  try {
    fs.mkdirSync(paths.usedPlans, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new SvcError('IO_ERROR', `cannot create the state directory ${paths.dir}`, {
      cause: error,
      details: { reason: 'state-dir-unwritable', path: paths.dir },
    });
  }
}
