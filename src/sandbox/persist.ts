import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
  if (
    snapshot.format !== 'svc-sandbox-state' ||
    snapshot.version !== 1 ||
    !snapshot.fleet ||
    !Array.isArray(snapshot.jobs)
  ) {
    throw new Error(`${path}: not a sandbox state file (expected format svc-sandbox-state, version 1)`);
  }
  return snapshot as StateSnapshot;
}

/**
 * Writes the snapshot atomically (temp file + rename), so a reader in another process never
 * sees half a file. Changes only mark the state dirty; the server flushes once per request.
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
    this.dirty = false;
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.snapshot()));
    renameSync(temp, this.path);
  }
}
