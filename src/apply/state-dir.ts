import { createHash } from 'node:crypto';
import type * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../errors.js';
import { normaliseDashboardUrl } from './dashboard-key.js';

/**
 * Where apply keeps its records: `<cwd>/.svc-gitops/` unless configured otherwise. The journal
 * is per (dashboard, config) pair, the dashboard named by its normalised URL (so `localhost`
 * and `127.0.0.1` share one) and the config by its real path (so a symlink to it shares it too).
 * The lock is not here: it is per dashboard and per user (lock-dir.ts), so another state
 * directory never splits it.
 */

export const DEFAULT_STATE_DIR = '.svc-gitops';

export interface StatePaths {
  dir: string;
  journal: string;
  usedPlans: string;
}

/** `configPath` must be absolute and real (`realConfigPath`). */
export function statePaths(stateDir: string, dashboardUrl: string, configPath: string): StatePaths {
  const key = createHash('sha256')
    .update(`${normaliseDashboardUrl(dashboardUrl)}\n${configPath}`)
    .digest('hex')
    .slice(0, 16);
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
      hint: 'set SVC_GITOPS_STATE_DIR to a writable directory',
    });
  }
}

/** The config's path with symlinks resolved; as given when it cannot be (a saved plan's stand-in). */
export function realConfigPath(fs: typeof nodeFs, absolute: string): string {
  try {
    return String(fs.realpathSync(absolute));
  } catch {
    return absolute;
  }
}
