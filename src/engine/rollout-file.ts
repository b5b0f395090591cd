import type * as nodeFs from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { acquireLock } from '../apply/index.js';
import { isSvcError, SvcError } from '../errors.js';
import { emptyRolloutState, parseRolloutState, serialiseRolloutState } from '../plan/index.js';
import type { RolloutState } from '../types.js';

/**
 * The rollout state file's I/O, the same for every front end: where it lives, a fail-closed
 * read, an fsync'd whole-or-nothing write, and the lock every read-modify-write holds, so the
 * CLI, the Action and the tool server never lose each other's records.
 */

/**
 * The rollout state file beside the desired state: `svc-gitops.yaml` → `svc-gitops.rollout.json`,
 * a directory `svc-gitops/` → `svc-gitops.rollout.json` next to it. Named after the config, so
 * several configs in one directory (one per dashboard) keep their own.
 */
export function rolloutStatePath(cwd: string, configPath: string): string {
  const absolute = resolve(cwd, configPath).replace(/[/\\]+$/, '');
  return `${absolute.replace(/\.ya?ml$/i, '')}.rollout.json`;
}

/** A missing file is the empty state; an unreadable or invalid one throws (gates fail closed). */
export function readRolloutState(
  fs: typeof nodeFs,
  path: string,
  now: Date,
): { state: RolloutState; text: string | undefined } {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8') as string;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return { state: emptyRolloutState(), text: undefined };
    throw new SvcError('IO_ERROR', `cannot read ${path} (${String(code ?? error)})`, { cause: error });
  }
  return { state: parseRolloutState(text, path, now), text };
}

/**
 * Writes the state whole or not at all: a temporary sibling, flushed to disk, renamed over the
 * file, and the directory flushed, so a crash leaves the old state or the new one, never a torn
 * one. Returns false when the text is unchanged and nothing was written. Refusals carry data
 * (`details.path`, `details.reason`), no hint: each front end words its own.
 */
export function writeRolloutState(
  fs: typeof nodeFs,
  path: string,
  state: RolloutState,
  previous: string | undefined,
): boolean {
  const text = serialiseRolloutState(state);
  if (text === previous) return false;
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dirname(path), { recursive: true });
    const fd = fs.openSync(temporary, 'w', 0o644);
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, path);
    syncDirectory(fs, dirname(path));
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    const code = (error as { code?: unknown }).code;
    throw new SvcError('IO_ERROR', `cannot write ${path}: ${String(code ?? error)}`, {
      cause: error,
      details: { path, reason: 'rollout-state-unwritable' },
    });
  }
  return true;
}

/** The rename is durable once the directory is flushed; a file system that cannot do that (memfs) is let be. */
function syncDirectory(fs: typeof nodeFs, dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Directories cannot be opened or flushed on every platform; the file itself is flushed.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** How long a read-modify-write waits for another one (they take milliseconds), and how often it looks. */
const LOCK_WAIT_MS = 5_000;
const LOCK_PAUSE_MS = 100;
/** A lock held longer than this was left by a run that died (on any host): it is taken over. */
export const ROLLOUT_LOCK_MAX_AGE_MS = 120_000;

/** The clock and waits the lock is waited for by (tests: virtual time). */
export interface LockTimers {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const REAL_TIMERS: LockTimers = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((done, fail) => {
      if (signal?.aborted) return fail(new SvcError('INTERRUPTED', 'interrupted'));
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        fail(new SvcError('INTERRUPTED', 'interrupted'));
      });
    }),
};

export interface RolloutLockOptions {
  /** A lock taken over from a run that is gone. */
  onWarning: (message: string) => void;
  /** Real timers by default; the holder's `started_at` is written and judged on this clock. */
  timers?: LockTimers | undefined;
  /** Whether a pid on this host is alive; by default asked of the system. */
  isAlive?: ((pid: number) => boolean) | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Runs `work` holding the rollout state's lock (`<file>.lock`, the apply lock's kind: O_EXCL,
 * names its holder). A busy lock is waited for, up to LOCK_WAIT_MS on `timers`; one still busy
 * then is LOCKED. A lock is stale, and taken over with a warning, when its holder's pid is dead
 * on this host or it was taken more than ROLLOUT_LOCK_MAX_AGE_MS ago (a run in another
 * container, killed). Every front end takes it around each read-modify-write of the file.
 */
export async function withRolloutLock<T>(
  fs: typeof nodeFs,
  path: string,
  options: RolloutLockOptions,
  work: () => T,
): Promise<T> {
  const timers = options.timers ?? REAL_TIMERS;
  fs.mkdirSync(dirname(path), { recursive: true });
  const started = timers.now();
  const holder = { pid: process.pid, host: hostname(), started_at: new Date(started).toISOString() };
  for (;;) {
    let held: { release(): void };
    try {
      held = acquireLock({
        fs,
        path: `${path}.lock`,
        holder,
        onWarning: options.onWarning,
        name: 'rollout state lock',
        maxAgeMs: ROLLOUT_LOCK_MAX_AGE_MS,
        now: timers.now,
        ...(options.isAlive ? { isAlive: options.isAlive } : {}),
      });
    } catch (error) {
      if (!isSvcError(error) || error.code !== 'LOCKED') throw error;
      if (timers.now() - started >= LOCK_WAIT_MS) {
        throw new SvcError('LOCKED', `the rollout state ${path} stays locked by another run`, {
          details: { path, reason: 'rollout-state-locked', holder: error.details.holder },
          cause: error,
        });
      }
      await timers.sleep(LOCK_PAUSE_MS, options.signal);
      continue;
    }
    try {
      return work();
    } finally {
      held.release();
    }
  }
}
