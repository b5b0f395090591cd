import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { EXIT, SvcError } from '../../errors.js';
import {
  type HistoryProblem,
  type HistoryRecord,
  historyFilter,
  historyPath,
  scanHistory,
  stateDirOf,
} from '../../index.js';
import { safeText } from '../../render/index.js';
import type { CliContext } from '../context.js';
import { printHistoryRuns } from '../history-runs.js';
import { cliSettings } from '../pipeline.js';

/** text: runs and their rows; json: one document; jsonl: the kept lines as the file holds them. */
const HISTORY_FORMATS = ['text', 'json', 'jsonl'] as const;

interface HistoryFlags {
  site?: string;
  item?: string;
  since?: string;
  file?: string;
  format: (typeof HISTORY_FORMATS)[number];
}

/**
 * `svc-gitops history`: the records every apply appended (src/apply/history.ts), filtered and
 * printed, without contacting the dashboard; the file is streamed, never held whole. A
 * malformed line is reported as `file:line` on stderr after the good records are printed, and
 * the exit code is 1.
 */
export function registerHistory(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('history')
    .description('print what earlier applies changed, per run and site (from the apply history file)')
    .option('--site <site>', 'only this site (its id, address or domain, or its name in the dashboard)')
    .option('--item <item>', 'only this item (slug or name)')
    .option(
      '--since <time>',
      'only records from this time on: an ISO time, or a duration back from now (7d, 12h, 30m, 2w)',
    )
    .option(
      '--file <path>',
      'the history file (default: the historyFile setting, else history.jsonl in the state directory)',
    )
    .addOption(
      new Option(
        '--format <format>',
        'output format (json: {"kind":"history","file","records","problems"}; jsonl: the kept lines as the file holds them)',
      )
        .choices(HISTORY_FORMATS)
        .default('text'),
    )
    .action(async (flags: HistoryFlags) => setExit(history(ctx, flags)));
}

export function history(ctx: CliContext, flags: HistoryFlags): number {
  const since = flags.since === undefined ? undefined : sinceTime(flags.since, ctx.now());
  const file = historyFile(ctx, flags.file);
  const keep = historyFilter({ site: flags.site, item: flags.item, since });
  const out = bufferedWrite(ctx);
  const problems =
    flags.format === 'text'
      ? printHistoryRuns(ctx.fs, file, keep, out.write)
      : printJson(ctx, file, keep, flags.format, out.write);
  out.flush();
  for (const problem of problems) {
    ctx.stderr.write(
      `svc-gitops: error: ${file}:${problem.line}: not a history record (${problem.message})\n`,
    );
  }
  return problems.length > 0 ? EXIT.error : EXIT.ok;
}

/**
 * json streams one document (`{"kind":"history","file","records":[…],"problems":[…]}`, the
 * records as they are read); jsonl repeats each kept line unchanged.
 */
function printJson(
  ctx: CliContext,
  file: string,
  keep: (record: HistoryRecord) => boolean,
  format: 'json' | 'jsonl',
  write: (text: string) => void,
): HistoryProblem[] {
  const problems: HistoryProblem[] = [];
  let first = true;
  if (format === 'json') write(`{"kind":"history","file":${JSON.stringify(file)},"records":[`);
  scanHistory(ctx.fs, file, {
    record(record, text) {
      if (!keep(record)) return;
      if (format === 'jsonl') return write(`${text}\n`);
      write(`${first ? '' : ','}${JSON.stringify(record)}`);
      first = false;
    },
    problem: (problem) => problems.push(problem),
  });
  if (format === 'json') write(`],"problems":${JSON.stringify(problems)}}\n`);
  return problems;
}

/** Output in chunks of about 64 KiB: one write per record would be 50,000 writes. */
function bufferedWrite(ctx: CliContext): { write: (text: string) => void; flush: () => void } {
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    if (size > 0) ctx.stdout.write(pending.join(''));
    pending = [];
    size = 0;
  };
  return {
    write(text) {
      pending.push(text);
      size += text.length;
      if (size >= 65_536) flush();
    },
    flush,
  };
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
