import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, SvcError } from '../../errors.js';
import { filterHistory, type HistoryRecord, historyPath, readHistory, stateDirOf } from '../../index.js';
import { safeText } from '../../render/index.js';
import type { CliContext } from '../context.js';
import { jsonLine, type TextOrJson, textOrJsonOption } from '../format-option.js';
import { cliSettings } from '../pipeline.js';

interface HistoryFlags {
  site?: string;
  item?: string;
  since?: string;
  file?: string;
  format: TextOrJson;
}

/**
 * `svc-gitops history`: the records every apply appended (src/apply/history.ts), filtered and
 * printed, without contacting the dashboard. A malformed line is reported as `file:line` on
 * stderr after the good records are printed, and the exit code is 1.
 */
export function registerHistory(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('history')
    .description('print what earlier applies changed, per site (from the apply history file)')
    .option('--site <site>', 'only this site (its id or URL)')
    .option('--item <item>', 'only this item (slug or name)')
    .option(
      '--since <time>',
      'only records from this time on: an ISO time, or a duration back from now (7d, 12h, 30m, 2w)',
    )
    .option(
      '--file <path>',
      'the history file (default: the historyFile setting, else history.jsonl in the state directory)',
    )
    .addOption(textOrJsonOption('{"kind":"history","file","records","problems"}'))
    .action(async (flags: HistoryFlags) => setExit(history(ctx, flags)));
}

export function history(ctx: CliContext, flags: HistoryFlags): number {
  const since = flags.since === undefined ? undefined : sinceTime(flags.since, ctx.now());
  const file = historyFile(ctx, flags.file);
  const read = readHistory(ctx.fs, file);
  const records = filterHistory(read.records, { site: flags.site, item: flags.item, since });
  if (flags.format === 'json') {
    ctx.stdout.write(jsonLine({ kind: 'history', file, records, problems: read.problems }));
  } else {
    ctx.stdout.write(records.length === 0 ? 'No history records match.\n' : historyTable(records));
  }
  for (const problem of read.problems) {
    ctx.stderr.write(
      `svc-gitops: error: ${file}:${problem.line}: not a history record (${problem.message})\n`,
    );
  }
  return read.problems.length > 0 ? EXIT.error : EXIT.ok;
}

function historyFile(ctx: CliContext, flag: string | undefined): string {
  if (flag !== undefined) return resolve(ctx.cwd, flag);
  const stateDir = resolve(ctx.cwd, stateDirOf(ctx.env));
  return historyPath(stateDir, cliSettings(ctx).historyFile);
}

const DURATION_UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** `--since`: an ISO time, or a duration (`7d`) counted back from now. */
export function sinceTime(text: string, now: Date): Date {
  const duration = /^(\d+)([mhdw])$/.exec(text.trim());
  if (duration) {
    return new Date(
      now.getTime() - Number(duration[1]) * (DURATION_UNIT_MS[duration[2] as string] as number),
    );
  }
  const time = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new SvcError('USAGE', `--since ${safeText(text)} is neither an ISO time nor a duration`, {
      hint: 'give an ISO time (2026-11-01 or 2026-11-01T12:00:00Z) or a duration back from now (7d, 12h, 30m, 2w)',
    });
  }
  return new Date(time);
}

function historyTable(records: readonly HistoryRecord[]): string {
  const header = ['TIME', 'SITE', 'ITEM', 'ACTION', 'CHANGE', 'OUTCOME', 'PLAN'];
  const rows = records.map((record) => [
    record.time,
    `${record.site_id} ${record.site_url}`,
    `${record.kind} ${record.slug}`,
    record.op,
    record.from !== undefined || record.to !== undefined ? `${record.from ?? '?'} → ${record.to ?? '?'}` : '',
    record.outcome + (record.code ? ` (${record.code})` : '') + (record.unverified ? ' unverified' : ''),
    record.plan_id.slice(0, 12),
  ]);
  const cells = [header, ...rows].map((row) => row.map((cell) => safeText(String(cell))));
  const widths = header.map((_, column) =>
    Math.max(...cells.map((row) => [...(row[column] as string)].length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(column === row.length - 1 ? 0 : (widths[column] as number)))
      .join('  ')
      .trimEnd();
  return `${cells.map(line).join('\n')}\n`;
}
