import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { resolveConfigPath } from '../../engine/index.js';
import {
  type Applied,
  applyLockPlace,
  DEFAULT_STATE_DIR,
  EXIT,
  REPORT_FORMATS,
  type ReportFormat,
  SvcError,
  stateDirOf,
} from '../../index.js';
import {
  countNotStarted,
  renderApplyCalls,
  renderApplyCallsJson,
  renderApplyReport,
} from '../../render/index.js';
import type { CliContext } from '../context.js';
import { type CliSession, cliSession } from '../pipeline.js';
import { createProgress } from '../progress.js';
import { checkWritableOutput, refuseConfigAsOutput, writeFileAtomic } from '../write-file.js';
import {
  type ApplyFlags,
  type ApprovedRun,
  approvalRequest,
  approve,
  checkApprovalFlags,
} from './apply-approval.js';

/**
 * `svc-gitops apply`: runs only what an approval covers. Four approval paths (apply-approval.ts):
 * - no PLANFILE: plan now, show it, `yes` at the prompt (or --auto-approve / no confirmation);
 * - PLANFILE: a saved plan, checked by the guard (integrity, expiry, single use, dashboard,
 *   live facts of the touched sites) under the apply lock;
 * - --reviewed FILE: plan now from the merged config, run only the reviewed actions;
 * - --resume: plan now, run only what is left of the interrupted run in the journal.
 * Then `runApproved` (under the apply lock: the journal, the calls, the confirming re-read),
 * and this prints the report and chooses the exit code.
 */

export function registerApply(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('apply')
    .description('apply an approved plan: plan now and confirm, or a saved / reviewed plan file')
    .argument('[planfile]', 'a saved plan (`svc-gitops plan --out FILE`) to check and apply')
    .option('-c, --config <path>', 'desired-state file or directory')
    .option('--auto-approve', 'apply without the prompt (not enough for plans that need approval)')
    .option(
      '--reviewed <planfile>',
      'merge flow: apply only the actions of this reviewed plan that are still needed',
    )
    .option('--resume', 'finish an interrupted apply: only what is left of it')
    .option('--target <site...>', 'only these sites (IDs, domains or globs), when planning now')
    .option('--dry-run', 'show the calls apply would send and send nothing')
    .option('-q, --quiet', 'no progress lines (reading the dashboard, applying); notable events still print')
    .addOption(new Option('--format <format>', 'report format').choices(REPORT_FORMATS).default('text'))
    .option('--out <file>', 'also write the report to FILE')
    .option(
      '--override-health',
      'start waves even though a health check found unhealthy sites (time gates still hold)',
    )
    .option(
      '--state-dir <dir>',
      `where the journal and used-plan records live (default ${DEFAULT_STATE_DIR}); the lock is per user and dashboard, never split by this`,
    )
    .action(async (planfile: string | undefined, flags: ApplyFlags) => {
      setExit(await runApply(ctx, planfile, flags));
    });
}

export async function runApply(
  ctx: CliContext,
  planfile: string | undefined,
  flags: ApplyFlags,
): Promise<number> {
  checkApprovalFlags(planfile, flags);
  if (flags.out) checkOutput(ctx, flags.out, flags.config);
  const stateDir = resolve(ctx.cwd, flags.stateDir ?? stateDirOf(ctx.env));
  const session = cliSession(ctx, { quiet: flags.quiet });
  try {
    const approved = await approve(ctx, session, approvalRequest(ctx, planfile, flags, stateDir));
    if (typeof approved === 'number') return approved;
    if (approved.kind === 'nothing-to-apply') {
      const unwritten =
        flags.out === undefined
          ? undefined
          : writeReport(ctx, flags.out, renderApplyReport(approved.report, format(flags)));
      if (unwritten) throw unwritten;
      return approved.report.halt ? EXIT.halted : EXIT.ok;
    }
    if (flags.dryRun) {
      const phases = await session.calls(approved);
      ctx.stdout.write(
        flags.format === 'json'
          ? renderApplyCallsJson(phases, approved.dashboardUrl)
          : renderApplyCalls(phases, approved.dashboardUrl),
      );
      return EXIT.ok;
    }
    return await runApprovedRun(ctx, session, approved, stateDir, flags);
  } finally {
    await session.close();
  }
}

/**
 * The report is written after the dashboard has changed: a path that cannot take it is refused
 * first, so a typo in --out never turns a finished apply into exit 1 (or replaces the config).
 */
function checkOutput(ctx: CliContext, out: string, config: string | undefined): void {
  checkWritableOutput(ctx.fs, ctx.cwd, out);
  let configPath: string;
  try {
    configPath = resolveConfigPath(ctx.fs, ctx.cwd, config);
  } catch {
    return; // a saved plan applies without a config at hand: nothing to protect
  }
  refuseConfigAsOutput(ctx.fs, ctx.cwd, out, configPath);
}

async function runApprovedRun(
  ctx: CliContext,
  session: CliSession,
  run: ApprovedRun,
  stateDir: string,
  flags: ApplyFlags,
): Promise<number> {
  const { rateLimit } = session.settings();
  const progress = createProgress(ctx.stderr, {
    clock: ctx.timers?.now ?? (() => ctx.now().getTime()),
    ...(ctx.timers ? { every: ctx.timers.every } : {}),
    ...(flags.quiet ? { quiet: true } : {}),
    ...(rateLimit === undefined ? {} : { rateLimit }),
  });
  let applied: Applied;
  try {
    applied = await session.apply(run, {
      stateDir,
      lock: (url) => applyLockPlace(ctx.env, homedir(), url),
      onEvent: (event) => progress.onEvent(event),
    });
  } finally {
    progress.finish();
  }
  const { result, report, journal } = applied;
  const rendered = renderApplyReport(report, format(flags));
  // The file is complete before stdout sees a byte: what a command saves never depends on
  // whether its output is read to the end (`| head`).
  const unwritten = flags.out === undefined ? undefined : writeReport(ctx, flags.out, rendered);
  ctx.stdout.write(rendered);
  if (unwritten) throw unwritten;
  if (result.interrupted) {
    ctx.stderr.write(
      `svc-gitops: interrupted: the journal is in ${journal}; run \`${resumeCommand(flags)}\` to finish\n`,
    );
    return EXIT.interrupted;
  }
  if (report.unreachable) {
    // A failed apply (exit 1), not an interrupted one: the person did not stop it.
    const notStarted = countNotStarted(result.outcomes);
    ctx.stderr.write(
      `svc-gitops: the dashboard could not be reached: ${notStarted} action(s) not started; the journal is in ${journal}; once the dashboard answers again, run \`${resumeCommand(flags)}\` to finish\n`,
    );
    return EXIT.error;
  }
  // Success only when every action is confirmed: a failed one, or one the re-read could not
  // confirm, makes the run an error.
  const unsettled =
    result.outcomes.some((outcome) => outcome.status === 'failed' || outcome.unverified) ||
    result.health?.some((wave) => wave.stopped) === true ||
    result.stopped?.code === 'GATE_CLOSED';
  return unsettled ? EXIT.error : report.halt ? EXIT.halted : EXIT.ok;
}

const format = (flags: ApplyFlags) => flags.format as ReportFormat;

/** Writes the report whole or not at all; a failure is returned, to throw once stdout has it. */
function writeReport(ctx: CliContext, out: string, text: string): SvcError | undefined {
  try {
    writeFileAtomic(ctx.fs, ctx.cwd, out, [text]);
    return undefined;
  } catch (error) {
    return new SvcError('IO_ERROR', `cannot write the report to ${out} (${writeFailure(error)})`, {
      hint: 'the apply itself finished: its report is printed above',
      cause: error,
    });
  }
}

/** The cause writeFileAtomic wrapped, as its code (ENOSPC, EACCES) where it has one. */
function writeFailure(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  return String((cause as { code?: unknown }).code ?? (error instanceof Error ? error.message : error));
}

/** The resume command that finds this run's journal: with its --state-dir when one was given. */
function resumeCommand(flags: ApplyFlags): string {
  return `svc-gitops apply --resume${flags.stateDir === undefined ? '' : ` --state-dir ${flags.stateDir}`}`;
}
