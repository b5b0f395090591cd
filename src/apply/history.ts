import type * as nodeFs from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { SvcError } from '../errors.js';
import type { ActionOp, ActionStatus, ApplyResult, ItemKind } from '../types.js';

/**
 * The apply history: one JSON line per action an apply started (done, failed or blocked), in
 * the file every apply of every front end appends to (`runApproved` is the one place that
 * writes it). Lines are only ever appended: a run's lines go out in one write to a descriptor
 * opened with O_APPEND, so concurrent runs never interleave within a line and the file is never
 * rewritten. A record holds only plan facts and outcome codes, never an outcome's message or
 * any setting, so no credential can reach it.
 */

export const HISTORY_FILE = 'history.jsonl';

export interface HistoryRecord {
  /** When the run finished (ISO time): every record of one run shares it. */
  time: string;
  /** When the run started (ISO time); with `plan_id` it names the run. Absent in older files. */
  started_at?: string;
  plan_id: string;
  dashboard: string;
  site_id: number;
  site_url: string;
  /** The site's name in the dashboard, when a read of this run listed it. */
  site_name?: string;
  op: ActionOp;
  kind: ItemKind;
  slug: string;
  name: string;
  from?: string;
  to?: string;
  wave?: string;
  outcome: Exclude<ActionStatus, 'skipped'>;
  /** The outcome's code (a failed call's SvcError or dashboard code); absent when done. */
  code?: string;
  /** Reported done, but the confirming re-read could not check it. */
  unverified?: true;
}

/**
 * The history file: `setting` (the historyFile setting, SVC_HISTORY_FILE) when given, taken
 * from the state directory when relative; else `history.jsonl` in the state directory.
 */
export function historyPath(stateDir: string, setting: string | undefined): string {
  if (!setting) return join(stateDir, HISTORY_FILE);
  return isAbsolute(setting) ? setting : resolve(stateDir, setting);
}

/**
 * The records of a run: its started actions in plan order; skipped ones changed nothing.
 * `siteNames` are the names the run's own reads listed (no extra call is made for them).
 */
export function historyRecords(
  result: ApplyResult,
  dashboard: string,
  siteNames: ReadonlyMap<number, string> = new Map(),
): HistoryRecord[] {
  const records: HistoryRecord[] = [];
  for (const outcome of result.outcomes) {
    if (outcome.status === 'skipped') continue;
    const { action } = outcome;
    const siteName = siteNames.get(action.site_id);
    records.push({
      time: result.finished_at,
      started_at: result.started_at,
      plan_id: result.plan_id,
      dashboard,
      site_id: action.site_id,
      site_url: action.site_url,
      ...(siteName ? { site_name: siteName } : {}),
      op: action.op,
      kind: action.kind,
      slug: action.slug,
      name: action.name,
      ...(action.from === undefined ? {} : { from: action.from }),
      ...(action.to === undefined ? {} : { to: action.to }),
      ...(action.wave === undefined ? {} : { wave: action.wave }),
      outcome: outcome.status,
      ...(outcome.code === undefined ? {} : { code: String(outcome.code) }),
      ...(outcome.unverified ? { unverified: true as const } : {}),
    });
  }
  return records;
}

/** Appends the records in one write (O_APPEND); the file and its directory are made as needed. */
export function appendHistory(fs: typeof nodeFs, path: string, records: readonly HistoryRecord[]): void {
  if (records.length === 0) return;
  const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
  let fd: number | undefined;
  try {
    fs.mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    fd = fs.openSync(path, 'a', 0o600);
    fs.writeSync(fd, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SvcError('IO_ERROR', `cannot append to the apply history ${path}${code ? ` (${code})` : ''}`, {
      cause: error,
      details: { reason: 'history-unwritable', path },
    });
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
