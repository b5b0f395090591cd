import type * as nodeFs from 'node:fs';
import { type HistoryProblem, type HistoryRecord, scanHistory } from '../index.js';
import { safeText } from '../render/index.js';

/**
 * `history`'s text: one group per apply run, a summary line then its rows, readable at tens of
 * thousands of records. The file is scanned twice, never held: the first pass counts each run
 * and measures the columns, the second prints. A run's lines are one append (history.ts), so
 * a run's records are consecutive and a run is done when the next one starts.
 */

/** What a run's summary line says; the rows follow it. */
interface RunSummary {
  key: string;
  plan_id: string;
  dashboard: string;
  started_at: string | undefined;
  time: string;
  records: number;
  sites: number;
  outcomes: Map<string, number>;
}

type Keep = (record: HistoryRecord) => boolean;
type Write = (text: string) => void;

const HEADER = ['SITE', 'ITEM', 'ACTION', 'CHANGE', 'OUTCOME'];
/** Columns wider than this let their long cells run over rather than widen every row. */
const MAX_WIDTH = 48;

/** Prints the kept records grouped by run; returns the malformed lines (from the first pass). */
export function printHistoryRuns(
  fs: typeof nodeFs,
  path: string,
  keep: Keep,
  write: Write,
): HistoryProblem[] {
  const survey = surveyRuns(fs, path, keep);
  if (survey.runs.length === 0) {
    write('No history records match.\n');
    return survey.problems;
  }
  const runs = survey.runs.values();
  let run: RunSummary | undefined;
  let line = 0;
  scanHistory(fs, path, {
    record(record) {
      line++;
      // Lines an apply appended after the first pass are left for the next call.
      if (line > survey.lines || !keep(record)) return;
      if (run === undefined || runKey(record) !== run.key) {
        run = runs.next().value as RunSummary;
        write(`${run === survey.runs[0] ? '' : '\n'}${summaryLine(run)}\n`);
        write(rowLine(HEADER, survey.widths));
      }
      write(rowLine(cells(record), survey.widths));
    },
    problem() {
      line++;
    },
  });
  return survey.problems;
}

function surveyRuns(fs: typeof nodeFs, path: string, keep: Keep) {
  const runs: RunSummary[] = [];
  const problems: HistoryProblem[] = [];
  const widths = HEADER.map((cell) => cell.length);
  let sites = new Set<number>();
  let lines = 0;
  scanHistory(fs, path, {
    record(record) {
      lines++;
      if (!keep(record)) return;
      let run = runs.at(-1);
      if (run === undefined || runKey(record) !== run.key) {
        run = newRun(record);
        runs.push(run);
        sites = new Set();
      }
      run.records++;
      sites.add(record.site_id);
      run.sites = sites.size;
      run.outcomes.set(record.outcome, (run.outcomes.get(record.outcome) ?? 0) + 1);
      cells(record).forEach((cell, column) => {
        widths[column] = Math.min(MAX_WIDTH, Math.max(widths[column] as number, cell.length));
      });
    },
    problem(problem) {
      lines++;
      problems.push(problem);
    },
  });
  return { runs, problems, widths, lines };
}

function runKey(record: HistoryRecord): string {
  return `${record.plan_id} ${record.started_at ?? ''} ${record.time} ${record.dashboard}`;
}

function newRun(record: HistoryRecord): RunSummary {
  return {
    key: runKey(record),
    plan_id: record.plan_id,
    dashboard: record.dashboard,
    started_at: record.started_at,
    time: record.time,
    records: 0,
    sites: 0,
    outcomes: new Map(),
  };
}

const OUTCOMES = ['done', 'failed', 'blocked'];
/** done, failed, blocked, then any other outcome a newer version may write. */
function outcomeRank(outcome: string): number {
  const rank = OUTCOMES.indexOf(outcome);
  return rank === -1 ? OUTCOMES.length : rank;
}
const count = (n: number) => n.toLocaleString('en-US');

/** `Apply 2026-11-20 10:00:00Z → 10:04:12Z, plan 1a2b3c4d5e6f, https://dash: 3 actions on 2 sites: 2 done, 1 failed` */
export function summaryLine(run: RunSummary): string {
  const finished = shownTime(run.time);
  const started = run.started_at === undefined ? undefined : shownTime(run.started_at);
  const when =
    started === undefined
      ? `finished ${finished}`
      : `${started} → ${finished.slice(0, 10) === started.slice(0, 10) ? finished.slice(11) : finished}`;
  const outcomes = [...run.outcomes]
    .sort(([a], [b]) => outcomeRank(a) - outcomeRank(b))
    .map(([outcome, n]) => `${count(n)} ${outcome}`)
    .join(', ');
  return safeText(
    `Apply ${when}, plan ${run.plan_id.slice(0, 12)}, ${run.dashboard}: ${count(run.records)} action${run.records === 1 ? '' : 's'} on ${count(run.sites)} site${run.sites === 1 ? '' : 's'}: ${outcomes}`,
  );
}

/** An ISO time as `2026-11-20 10:00:00Z` (UTC, to the second). */
function shownTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : `${time.toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

function cells(record: HistoryRecord): string[] {
  const address = record.site_url.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
  return [
    `${record.site_id} ${address}${record.site_name ? ` (${record.site_name})` : ''}`,
    `${record.kind} ${record.slug}`,
    record.op,
    record.from !== undefined || record.to !== undefined ? `${record.from ?? '?'} → ${record.to ?? '?'}` : '',
    record.outcome + (record.code ? ` (${record.code})` : '') + (record.unverified ? ' unverified' : ''),
  ].map((cell) => safeText(cell));
}

function rowLine(row: readonly string[], widths: readonly number[]): string {
  const padded = row.map((cell, column) =>
    column === row.length - 1 ? cell : cell.padEnd(widths[column] as number),
  );
  return `  ${padded.join('  ').trimEnd()}\n`;
}
