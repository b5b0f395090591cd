import { createHash } from 'node:crypto';
import { isAbsolute, join } from 'node:path';
import { dashboardKey } from './dashboard-key.js';

/** The apply lock of one dashboard: its file and the dashboard key it stands for. */
export interface ApplyLockPlace {
  path: string;
  dashboard: string;
}

/** The lock of the dashboard at `dashboardUrl` for the user of `env` (its HOME, XDG_STATE_HOME, SVC_GITOPS_LOCK_DIR). */
export async function applyLockPlace(
  env: Record<string, string | undefined>,
  home: string,
  dashboardUrl: string,
): Promise<ApplyLockPlace> {
  const dashboard = await dashboardKey(dashboardUrl);
  return { path: lockFile(lockDir(env, home), dashboard), dashboard };
}

/**
 * Where the apply locks live: one directory per user, not per checkout, so two checkouts, two
 * working directories or two `--state-dir`s of one user exclude each other. `SVC_GITOPS_LOCK_DIR`
 * when set (a directory shared by several users or machines, if they share a file system that
 * honours O_EXCL), else `$XDG_STATE_HOME/svc-gitops/locks`, else `~/.local/state/svc-gitops/locks`.
 */
export function lockDir(env: Record<string, string | undefined>, home: string): string {
  if (env.SVC_GITOPS_LOCK_DIR) return env.SVC_GITOPS_LOCK_DIR;
  const xdg = env.XDG_STATE_HOME;
  // The XDG spec: a relative path is invalid and must be ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || home, '.local', 'state');
  return join(base, 'svc-gitops', 'locks');
}

/** The lock file of one dashboard (its `dashboardKey`) in `dir`. */
export function lockFile(dir: string, key: string): string {
  return join(dir, `apply-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.lock`);
}
