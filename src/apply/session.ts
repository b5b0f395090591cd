import type * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { acquireLock } from './lock.js';
import { ensureStateDir, type StatePaths } from './state-dir.js';

/**
 * Runs `work` while holding the apply lock of one (dashboard, config) pair. Everything that
 * must not race with another apply (the live re-check, marking a plan used, the calls and the
 * journal) happens inside; the lock is released whatever `work` does, except when the process
 * is killed, which is what stale-lock takeover is for.
 */
export async function withApplyLock<T>(
  fs: typeof nodeFs,
  paths: StatePaths,
  now: Date,
  onWarning: (message: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  ensureStateDir(fs, paths);
  const lock = acquireLock({
    fs,
    path: paths.lock,
    holder: { pid: process.pid, host: hostname(), started_at: now.toISOString() },
    onWarning,
  });
  try {
    return await work();
  } finally {
    lock.release();
  }
}
