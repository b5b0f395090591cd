import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { Fleet } from './fleet-types.js';
import type { Job } from './jobs.js';

/** The persisted state file: the fleet as it is now, the job table and the simulated time. */
export interface StateSnapshot {
  format: 'svc-sandbox-state';
  version: 1;
  clock: number;
  fleet: Fleet;
  jobs: Job[];
}

export function readSnapshot(path: string): StateSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `${path}: the sandbox state file is not valid JSON (${error instanceof Error ? error.message : error})`,
    );
  }
  const snapshot = parsed as Partial<StateSnapshot>;
  const fleet = snapshot.fleet as Partial<Fleet> | undefined;
  if (
    snapshot.format !== 'svc-sandbox-state' ||
    snapshot.version !== 1 ||
    typeof snapshot.clock !== 'number' ||
    typeof fleet !== 'object' ||
    fleet === null ||
    !Array.isArray(fleet.sites) ||
    !Array.isArray(fleet.users) ||
    !Array.isArray(fleet.apiKeys) ||
    typeof fleet.globalIgnores !== 'object' ||
    fleet.globalIgnores === null ||
    !Array.isArray(snapshot.jobs)
  ) {
    throw new Error(`${path}: not a sandbox state file (expected format svc-sandbox-state, version 1)`);
  }
  return snapshot as StateSnapshot;
}

/**
 * Writes the snapshot atomically (temp file + rename), so a reader in another process never
 * sees half a file. Changes only mark the state dirty; the server flushes once per request. A
 * failed write keeps the state dirty (the next flush retries) and throws an error naming the file.
 */
export class StateWriter {
  private dirty = false;
  constructor(
    private readonly path: string | undefined,
    private readonly snapshot: () => StateSnapshot,
  ) {}

  markDirty(): void {
    this.dirty = true;
  }

  flush(): void {
    if (!this.dirty || !this.path) return;
    const temp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(this.snapshot()));
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new Error(`cannot write the sandbox state file ${this.path} (${code}); changes are not saved`);
    }
    this.dirty = false;
  }
}

/**
 * One running sandbox per state file: `<state>.lock` holds the owner's pid. Two sandboxes on one
 * file would each overwrite the other's changes. A dead owner's lock (killed process) is taken over.
 */
export class StateLock {
  /** Locks this process holds: a lock naming our own pid but not held here is a stale one. */
  private static readonly held = new Set<string>();
  private constructor(private readonly path: string) {}

  static acquire(statePath: string): StateLock {
    const path = `${statePath}.lock`;
    for (let attempt = 0; attempt < 2; attempt++) {
      let fd: number;
      try {
        fd = openSync(path, 'wx');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          const code = (error as NodeJS.ErrnoException).code ?? String(error);
          throw new Error(`cannot write the sandbox state file ${statePath} (${code})`);
        }
        const owner = Number.parseInt(readText(path), 10);
        const inUse =
          owner === process.pid ? StateLock.held.has(path) : owner > 0 ? isAlive(owner) : beingWritten(path); // no pid yet: its owner may be between creating and writing it
        if (inUse) {
          throw new Error(
            `the sandbox state file ${statePath} is in use by another sandbox${owner > 0 ? ` (pid ${owner})` : ' (starting)'}; stop it or use another --state file`,
          );
        }
        rmSync(path, { force: true });
        continue;
      }
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      StateLock.held.add(path);
      return new StateLock(path);
    }
    throw new Error(`the sandbox state file ${statePath} is being taken by another sandbox; try again`);
  }

  release(): void {
    if (!StateLock.held.delete(this.path)) return;
    rmSync(this.path, { force: true });
  }
}

/** A lock file without a pid younger than this is still being written by its owner. */
const FRESH_LOCK_MS = 5_000;

function beingWritten(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < FRESH_LOCK_MS;
  } catch {
    return false;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
