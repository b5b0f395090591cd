import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';

/**
 * One apply per dashboard at a time, whatever config, checkout or state directory it runs from
 * (lock-dir.ts, dashboard-key.ts). The lock is a file created with O_EXCL that
 * names its holder; a lock whose holder process is gone (same host, pid not alive) is stale and
 * is taken over with a warning, so a killed apply never blocks the next one forever. A takeover
 * happens under a second lock (`<lock>.takeover`, held for a moment) and only if the lock still
 * names the holder judged stale: two applies that both found the same stale lock can never both
 * replace it (the second would remove the first one's fresh lock).
 */

export interface LockHolder {
  pid: number;
  host: string;
  started_at: string;
}

export interface LockOptions {
  fs: typeof nodeFs;
  path: string;
  /** The dashboard the lock stands for, as named in messages. */
  dashboard?: string;
  holder: LockHolder;
  /** Whether a process with this pid is alive on this host (injected for tests). */
  isAlive?: (pid: number) => boolean;
  /**
   * A lock whose holder started longer ago than this is stale whatever its host (a lock held for
   * moments, left by a run that died in a container whose pid this host cannot see). None: only
   * a dead pid on this host makes a lock stale.
   */
  maxAgeMs?: number;
  /** The clock holders' `started_at` is judged by (the clock they were written with). */
  now?: () => number;
  /** What the lock guards, as warnings and errors name it (default: the apply lock). */
  name?: string;
  onWarning?: (message: string) => void;
}

export interface HeldLock {
  release(): void;
}

export function acquireLock(options: LockOptions): HeldLock {
  const { fs, path, holder } = options;
  const isAlive = options.isAlive ?? processIsAlive;
  const name = options.name ?? 'apply lock';
  // Two attempts: the second only after removing a stale lock.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(path, 'wx', 0o600);
      fs.writeSync(fd, `${JSON.stringify(holder)}\n`);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      return { release: () => releaseIfOurs(fs, path, holder) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        // A lock created but not written would keep the next apply out for nothing.
        if (fd !== undefined) discard(fs, path, fd);
        const code = (error as NodeJS.ErrnoException).code;
        throw new SvcError('IO_ERROR', `cannot create the ${name} ${path}${code ? ` (${code})` : ''}`, {
          cause: error,
        });
      }
    }
    const current = readHolder(fs, path);
    // An unreadable lock may be one another process created a moment ago and is still writing.
    const dead = current !== undefined && current.host === holder.host && !isAlive(current.pid);
    const expired = current !== undefined && !dead && startedLongAgo(current, options);
    const stale = current === undefined ? isOlderThan(fs, path, TORN_LOCK_AGE_MS) : dead || expired;
    if (!stale || attempt > 0) {
      const who =
        current === undefined
          ? `its lock ${path} is being written or was left unreadable`
          : `pid ${current.pid} on ${current.host}, started ${current.started_at}`;
      const against = options.dashboard ? ` (${options.dashboard})` : '';
      throw new SvcError('LOCKED', `another apply is running against this dashboard${against}: ${who}`, {
        hint: `wait for it to finish; if that process is gone, delete ${path}`,
        details: { holder: current },
      });
    }
    if (removeIfStill(fs, path, current)) {
      options.onWarning?.(
        current === undefined
          ? `taking over an unreadable ${name} ${path}`
          : `taking over a stale ${name} of pid ${current.pid} on ${current.host} (started ${current.started_at}; ${expired ? 'held longer than a run holds it' : 'the process is gone'})`,
      );
    }
  }
  throw new SvcError('INTERNAL', 'lock acquisition fell through');
}

/** Whether the holder started more than `maxAgeMs` ago (a `started_at` that does not parse never does). */
function startedLongAgo(holder: LockHolder, options: LockOptions): boolean {
  if (options.maxAgeMs === undefined) return false;
  const started = Date.parse(holder.started_at);
  return Number.isFinite(started) && (options.now ?? Date.now)() - started > options.maxAgeMs;
}

/** A takeover lock older than this was left by a process killed mid-takeover (it takes milliseconds). */
const TAKEOVER_AGE_MS = 10_000;

/**
 * Removes the lock if it still names `judged`, under the takeover lock; false when another
 * process is taking over or already has (the caller's next attempt then meets that holder).
 */
function removeIfStill(fs: typeof nodeFs, path: string, judged: LockHolder | undefined): boolean {
  const guard = `${path}.takeover`;
  if (isOlderThan(fs, guard, TAKEOVER_AGE_MS)) fs.rmSync(guard, { force: true });
  try {
    fs.closeSync(fs.openSync(guard, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new SvcError('IO_ERROR', `cannot create the apply lock ${guard}`, { cause: error });
  }
  try {
    if (!sameHolder(readHolder(fs, path), judged)) return false;
    // A torn lock judged stale must still be an old one: a lock just created by the apply that
    // took over first is unreadable too until its holder line is written.
    if (judged === undefined && !isOlderThan(fs, path, TORN_LOCK_AGE_MS)) return false;
    fs.rmSync(path, { force: true });
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

function sameHolder(a: LockHolder | undefined, b: LockHolder | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.pid === b.pid && a.host === b.host && a.started_at === b.started_at;
}

const TORN_LOCK_AGE_MS = 5_000;

function isOlderThan(fs: typeof nodeFs, path: string, ageMs: number): boolean {
  try {
    return Date.now() - Number(fs.statSync(path).mtimeMs) > ageMs;
  } catch {
    return true;
  }
}

function readHolder(fs: typeof nodeFs, path: string): LockHolder | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(path, 'utf8') as string) as Partial<LockHolder>;
    if (
      typeof value.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.started_at === 'string'
    ) {
      return value as LockHolder;
    }
  } catch {
    // Missing or torn (killed while writing): treated as stale below.
  }
  return undefined;
}

/** Best effort: the error that brought us here is the one to report. */
function discard(fs: typeof nodeFs, path: string, fd: number): void {
  for (const step of [() => fs.closeSync(fd), () => fs.rmSync(path, { force: true })]) {
    try {
      step();
    } catch {
      // Already closed (the failure was closeSync itself), or already gone.
    }
  }
}

function releaseIfOurs(fs: typeof nodeFs, path: string, holder: LockHolder): void {
  const current = readHolder(fs, path);
  if (current && current.pid === holder.pid && current.started_at === holder.started_at)
    fs.rmSync(path, { force: true });
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
