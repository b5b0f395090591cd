import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';
import type { Action, PlanGate } from '../types.js';
import { type CompactLine, decodeLines } from './journal-lines.js';
import type { JournalRecord } from './journal-records.js';

/**
 * The append-only record of an apply: what was sent, what came back. One JSON object per line,
 * each line fsynced before the call it announces goes out, so a killed process leaves a
 * truthful prefix (at most a torn last line, which readers skip). Apply writes compact lines
 * (journal-lines.ts); readers see `JournalRecord`s, decoded from those and from the longer
 * lines of older versions alike.
 */

export type { JournalCall, JournalRecord } from './journal-records.js';

/** A line as written: compact, or (still read, and written by tests) a record as it is. */
export type JournalLine = CompactLine | JournalRecord;

export interface ApplyJournal {
  /**
   * Writes the line at once (so the file order is the call order) and resolves once it is
   * fsynced. Concurrent appends share one fsync (group commit): each line is durable before
   * its promise resolves, at a fraction of the cost of one fsync per line.
   */
  append(record: JournalLine): Promise<void>;
  /** Several lines, one fsync. */
  appendAll(records: readonly JournalLine[]): Promise<void>;
  close(): void;
}

export function openJournal(fs: typeof nodeFs, path: string): ApplyJournal {
  let fd: number;
  try {
    fd = fs.openSync(path, 'a', 0o600);
  } catch (error) {
    throw new SvcError('IO_ERROR', `cannot open the apply journal ${path}`, { cause: error });
  }
  const sync = groupCommit((done) => fs.fsync(fd, done), path);
  const write = (text: string) => {
    try {
      fs.writeSync(fd, text);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new SvcError('IO_ERROR', `cannot write the apply journal ${path}${code ? ` (${code})` : ''}`, {
        cause: error,
        details: { reason: 'journal-unwritable', path },
      });
    }
  };
  return {
    append(record) {
      write(`${JSON.stringify(record)}\n`);
      return sync();
    },
    appendAll(records) {
      if (records.length === 0) return Promise.resolve();
      write(records.map((record) => `${JSON.stringify(record)}\n`).join(''));
      return sync();
    },
    close() {
      fs.closeSync(fd);
    },
  };
}

/**
 * One fsync at a time; callers arriving while one runs share the next one (it must start after
 * their write, so the running one does not cover them).
 */
function groupCommit(
  fsync: (done: (error: Error | null) => void) => void,
  path: string,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const current = new Promise<void>((resolve, reject) =>
      fsync((error) =>
        error
          ? reject(new SvcError('IO_ERROR', `cannot fsync the apply journal ${path}`, { cause: error }))
          : resolve(),
      ),
    ).finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };
  return () => {
    if (next) return next;
    if (!running) return start();
    const after = running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    next = after;
    return after;
  };
}

/** All records of a journal; a missing file is empty, a torn or foreign line is skipped. */
export function readJournal(fs: typeof nodeFs, path: string): JournalRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8') as string;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SvcError('IO_ERROR', `cannot read the apply journal ${path}`, { cause: error });
  }
  const lines: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line));
    } catch {
      // A line torn by a kill: the call it announced is treated as never confirmed.
    }
  }
  return decodeLines(lines);
}

/**
 * Change keys of the updates whose calls reported them done since the last run that finished
 * and checked its outcomes against a re-read. Such a run settles everything before it: from then
 * on the live state says what is pending (a site restored from a backup may need the same update
 * again). Updates of later runs (killed, interrupted, or unable to re-read) are never sent again;
 * the run that skips them still checks them against its own re-read.
 */
export function completedUpdates(records: readonly JournalRecord[]): Set<string> {
  const done = new Set<string>();
  for (const record of records) {
    if (
      record.type === 'run-end' &&
      !record.interrupted &&
      record.verified !== false &&
      record.stopped === undefined
    )
      done.clear();
    if (record.type !== 'result') continue;
    for (const outcome of record.outcomes) {
      if (outcome.status === 'done' && outcome.key.startsWith('["update"')) done.add(outcome.key);
    }
  }
  return done;
}

export interface UnfinishedRun {
  runId: string;
  planId: string;
  desiredDigest: string;
  /** The dashboard the run was for (the plan's URL). */
  dashboard: string;
  actions: Action[];
  waveLimits?: Record<string, number>;
  gates?: PlanGate[];
  /** Calls that were sent but whose answer was never recorded. */
  inDoubtCalls: number;
}

/**
 * The last run that started but never recorded its end (killed), or ended interrupted or
 * stopped because the dashboard could not be reached.
 */
export function lastUnfinishedRun(records: readonly JournalRecord[]): UnfinishedRun | undefined {
  let last: Extract<JournalRecord, { type: 'run-start' }> | undefined;
  for (const record of records) if (record.type === 'run-start') last = record;
  if (!last) return undefined;
  const runId = last.run_id;
  const end = records.find((r) => r.type === 'run-end' && r.run_id === runId);
  if (end && end.type === 'run-end' && !end.interrupted && end.stopped === undefined) return undefined;
  const answered = new Set(
    records.filter((r) => r.type === 'result' && r.run_id === runId).map((r) => (r as { seq: number }).seq),
  );
  const inDoubtCalls = records.filter(
    (r) => r.type === 'sent' && r.run_id === runId && !answered.has(r.seq),
  ).length;
  return {
    runId,
    planId: last.plan_id,
    desiredDigest: last.desired_digest,
    dashboard: last.dashboard,
    // The reason is not journalled; reports of a resumed run name the action, not why it was planned.
    actions: last.actions.map((action) => ({ reason: '', ...action })),
    ...(last.wave_limits === undefined ? {} : { waveLimits: last.wave_limits }),
    ...(last.gates === undefined ? {} : { gates: last.gates }),
    inDoubtCalls,
  };
}
