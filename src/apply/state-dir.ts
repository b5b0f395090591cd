import { createHash } from 'node:crypto';
import type * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../errors.js';

/**
 * Where apply keeps its records: `<cwd>/.svc-gitops/` unless configured otherwise.
 * Journal and lock are per (dashboard, config) pair, so two configs may apply side by side
 * while two applies of the same config against the same dashboard exclude each other.
 */

export const DEFAULT_STATE_DIR = '.svc-gitops';

export interface StatePaths {
  dir: string;
  lock: string;
  journal: string;
  usedPlans: string;
}

/** `configPath` must be absolute (resolved against the command's working directory). */
export function statePaths(stateDir: string, dashboardUrl: string, configPath: string): StatePaths {
  const key = createHash('sha256')
    .update(`${dashboardUrl.replace(/\/+$/, '')}\n${configPath}`)
    .digest('hex')
    .slice(0, 16);
  return {
    dir: stateDir,
    lock: join(stateDir, `apply-${key}.lock`),
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
      hint: 'set SVC_GITOPS_STATE_DIR to a writable directory',
    });
  }
}
