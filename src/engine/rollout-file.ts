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

/** How long a read-modify-write waits for another one (they take milliseconds). */
const LOCK_TRIES = 50;
const LOCK_PAUSE_MS = 100;

/**
 * Runs `work` holding the rollout state's lock (`<file>.lock`, the apply lock's kind: O_EXCL,
 * names its holder, a dead holder's lock is taken over). Every front end takes it around each
 * read-modify-write of the file; a busy lock is waited for, a lock that stays busy is LOCKED.
 */
export async function withRolloutLock<T>(
  fs: typeof nodeFs,
  path: string,
  now: Date,
  onWarning: (message: string) => void,
  work: () => T,
): Promise<T> {
  fs.mkdirSync(dirname(path), { recursive: true });
  const holder = { pid: process.pid, host: hostname(), started_at: now.toISOString() };
  for (let attempt = 1; ; attempt += 1) {
    let held: { release(): void };
    try {
      held = acquireLock({ fs, path: `${path}.lock`, holder, onWarning });
    } catch (error) {
      if (!isSvcError(error) || error.code !== 'LOCKED') throw error;
      if (attempt >= LOCK_TRIES) {
        throw new SvcError('LOCKED', `the rollout state ${path} stays locked by another run`, {
          details: { path, reason: 'rollout-state-locked', holder: error.details.holder },
          cause: error,
        });
      }
      await new Promise((done) => setTimeout(done, LOCK_PAUSE_MS));
      continue;
    }
    try {
      return work();
    } finally {
      held.release();
    }
  }
}
