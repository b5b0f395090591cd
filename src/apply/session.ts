import type * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { SvcError } from '../errors.js';
import { acquireLock } from './lock.js';
import type { ApplyLockPlace } from './lock-dir.js';
import { ensureStateDir, type StatePaths } from './state-dir.js';

/**
 * Runs `work` while holding the apply lock of one dashboard. Everything that must not race with
 * another apply (the live re-check, marking a plan used, the calls and the journal) happens
 * inside; the lock is released whatever `work` does, except when the process is killed, which
 * is what stale-lock takeover is for.
 */
export async function withApplyLock<T>(
  fs: typeof nodeFs,
  paths: StatePaths,
  lock: ApplyLockPlace,
  now: Date,
  onWarning: (message: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  ensureStateDir(fs, paths);
  ensureLockDir(fs, dirname(lock.path));
  const held = acquireLock({
    fs,
    path: lock.path,
    dashboard: lock.dashboard,
    holder: { pid: process.pid, host: hostname(), started_at: now.toISOString() },
    onWarning,
  });
  try {
    return await work();
  } finally {
    held.release();
  }
}

function ensureLockDir(fs: typeof nodeFs, dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new SvcError('IO_ERROR', `cannot create the apply lock directory ${dir}`, {
      cause: error,
      details: { reason: 'lock-dir-unwritable', path: dir },
    });
  }
}
