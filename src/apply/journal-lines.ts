import type { Action, ActionStatus } from '../types.js';
import type { JournalRecord } from './journal-records.js';
import { changeKey } from './keys.js';

/**
 * The journal's compact lines, and their reading back into records. Pure.
 *
 * A fleet's apply journals tens of thousands of actions, so a line names an action by its index
 * in its run's `run-start` (never by a repeated key), a run-start stores each distinct value
 * once, and `sent`/`result` lines carry no run ID: they belong to the run-start before them (one
 * apply at a time writes a journal: the lock). Readers also take the longer lines older versions
 * wrote (`JournalRecord` as it is), so a journal written across an upgrade still resumes.
 *
 * - run-start: `fields` (the action keys), `values` (each distinct value once) and `rows` (per
 *   action, per field, the index of its value, or -1 when the action has no such field).
 * - sent: the calls of one write-ahead window: `calls[i]` lists the action indices of call
 *   `seq + i`.
 * - result: per action of one call `[index, status]` or `[index, status, code]`.
 */

export type RunStartLine = Omit<Extract<JournalRecord, { type: 'run-start' }>, 'actions'> & {
  fields: string[];
  values: unknown[];
  rows: number[][];
};
export interface SentLine {
  type: 'sent';
  seq: number;
  at: string;
  calls: number[][];
}
export type OutcomeEntry = [number, ActionStatus] | [number, ActionStatus, string];
export interface ResultLine {
  type: 'result';
  seq: number;
  at: string;
  outcomes: OutcomeEntry[];
}
export type CompactLine = RunStartLine | SentLine | ResultLine;

/** A run-start line for `actions` (already stripped of what recovery does not need). */
export function runStartLine(
  record: Omit<Extract<JournalRecord, { type: 'run-start' }>, 'actions'>,
  actions: ReadonlyArray<Record<string, unknown>>,
): RunStartLine {
  const fields: string[] = [];
  for (const action of actions)
    for (const field of Object.keys(action)) if (!fields.includes(field)) fields.push(field);
  const values: unknown[] = [];
  const valueIndex = new Map<string, number>();
  const rows = actions.map((action) =>
    fields.map((field) => {
      if (!Object.hasOwn(action, field) || action[field] === undefined) return -1;
      const value = action[field];
      const key = JSON.stringify(value);
      let index = valueIndex.get(key);
      if (index === undefined) {
        index = values.length;
        values.push(value);
        valueIndex.set(key, index);
      }
      return index;
    }),
  );
  return { ...record, fields, values, rows };
}

/**
 * Reads journal lines back into records: compact lines are expanded (action indices become
 * change keys of their run's actions), older lines pass as they are. A line that does not fit
 * its run (an index it does not have, no run-start before it) is foreign and skipped.
 */
export function decodeLines(lines: readonly unknown[]): JournalRecord[] {
  const records: JournalRecord[] = [];
  let run: { id: string; actions: Action[]; keys: string[] } | undefined;
  const keyOf = (index: unknown): string | undefined => {
    if (!run || typeof index !== 'number') return undefined;
    const action = run.actions[index];
    if (!action) return undefined;
    run.keys[index] ??= changeKey(action);
    return run.keys[index];
  };
  for (const line of lines) {
    if (!line || typeof line !== 'object') continue;
    const value = line as Record<string, unknown>;
    if (value.type === 'run-start' && Array.isArray(value.rows)) {
      const decoded = decodeRunStart(value as unknown as RunStartLine);
      if (!decoded) continue;
      run = { id: decoded.run_id, actions: decoded.actions as Action[], keys: [] };
      records.push(decoded);
    } else if (value.type === 'sent' && Array.isArray(value.calls)) {
      if (!run || typeof value.seq !== 'number') continue;
      const sent = value as unknown as SentLine;
      const expanded: JournalRecord[] = [];
      for (const [i, call] of sent.calls.entries()) {
        const keys = Array.isArray(call) ? call.map(keyOf) : [undefined];
        if (keys.some((key) => key === undefined)) break;
        expanded.push({
          type: 'sent',
          run_id: run.id,
          seq: sent.seq + i,
          at: sent.at,
          actions: keys as string[],
        });
      }
      if (expanded.length === sent.calls.length) records.push(...expanded);
    } else if (value.type === 'result' && Array.isArray(value.outcomes) && typeof value.run_id !== 'string') {
      if (!run || typeof value.seq !== 'number') continue;
      const result = value as unknown as ResultLine;
      const outcomes: Array<{ key: string; status: ActionStatus; code?: string }> = [];
      for (const entry of result.outcomes) {
        const key = Array.isArray(entry) ? keyOf(entry[0]) : undefined;
        if (key === undefined) break;
        outcomes.push({ key, status: entry[1], ...(entry[2] === undefined ? {} : { code: entry[2] }) });
      }
      if (outcomes.length === result.outcomes.length)
        records.push({ type: 'result', run_id: run.id, seq: result.seq, at: result.at, outcomes });
    } else if (typeof value.type === 'string') {
      const record = value as unknown as JournalRecord;
      if (record.type === 'run-start')
        run = { id: record.run_id, actions: record.actions as Action[], keys: [] };
      records.push(record);
    }
  }
  return records;
}

function decodeRunStart(line: RunStartLine): Extract<JournalRecord, { type: 'run-start' }> | undefined {
  const { fields, values, rows, ...rest } = line;
  if (!Array.isArray(fields) || !Array.isArray(values)) return undefined;
  const actions: Array<Record<string, unknown>> = [];
  for (const row of rows) {
    if (!Array.isArray(row) || row.length !== fields.length) return undefined;
    const action: Record<string, unknown> = {};
    for (const [j, index] of row.entries()) {
      if (index === -1) continue;
      if (typeof index !== 'number' || index < 0 || index >= values.length) return undefined;
      action[fields[j]!] = values[index];
    }
    actions.push(action);
  }
  return { ...rest, actions: actions as Extract<JournalRecord, { type: 'run-start' }>['actions'] };
}
