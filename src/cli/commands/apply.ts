import { resolve } from 'node:path';
import type { Command } from 'commander';
import { checkApprovalParameters, checkLiveUnchanged } from '../../apply/guard.js';
import { applyPlan, batchPlan, DASHBOARD_UNREACHABLE } from '../../apply/index.js';
import { completedUpdates, openJournal, readJournal } from '../../apply/journal.js';
import { withApplyLock } from '../../apply/session.js';
import { DEFAULT_STATE_DIR, type StatePaths, statePaths } from '../../apply/state-dir.js';
import { combineHoldBacks, skipCompleted } from '../../apply/subset.js';
import { alreadyUsed, isPlanUsed, markPlanUsed } from '../../apply/used-plans.js';
import { resolveConfigPath } from '../../config/index.js';
import type { ReadLiveOptions } from '../../dashboard/client.js';
import { EXIT, SvcError } from '../../errors.js';
import { renderApplyCalls } from '../../render/apply-calls.js';
import { renderApplyJson } from '../../render/apply-json.js';
import { renderApplyMarkdown } from '../../render/apply-markdown.js';
import { type ApplyReport, countNotStarted } from '../../render/apply-report.js';
import { renderApplyText } from '../../render/apply-text.js';
import { terminalText } from '../../render/safe-text.js';
import type { Action } from '../../types.js';
import type { CliContext } from '../context.js';
import { createProgress } from '../progress.js';
import { checkWritableOutput, refuseConfigAsOutput } from '../write-file.js';
import {
  type ApplyFlags,
  type Approved,
  approveNow,
  approveResume,
  approveReviewed,
  approveSavedPlan,
} from './apply-approval.js';

/**
 * `svc-gitops apply`: runs only what an approval covers. Four approval paths (apply-approval.ts):
 * - no PLANFILE: plan now, show it, `yes` at the prompt (or --auto-approve / no confirmation);
 * - PLANFILE: a saved plan, checked by the guard (integrity, expiry, single use, dashboard,
 *   live facts of the touched sites) under the apply lock;
 * - --reviewed FILE: plan now from the merged config, run only the reviewed actions;
 * - --resume: plan now, run only what is left of the interrupted run in the journal.
 * Then, under the apply lock: the journal, the calls, the confirming re-read and the report.
 */

const FORMATS = ['text', 'markdown', 'json'];

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
    .option('--format <format>', 'report format: text, markdown or json', 'text')
    .option('--out <file>', 'also write the report to FILE')
    .option(
      '--state-dir <dir>',
      `where the journal, lock and used-plan records live (default ${DEFAULT_STATE_DIR})`,
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
  checkFlags(planfile, flags);
  if (flags.out) checkOutput(ctx, flags.out, flags.config);
  // An empty variable counts as unset, as every SVC_* setting does.
  const stateDir = resolve(ctx.cwd, flags.stateDir ?? (ctx.env.SVC_GITOPS_STATE_DIR || DEFAULT_STATE_DIR));
  const approved: Approved | number = planfile
    ? await approveSavedPlan(ctx, planfile, flags)
    : flags.reviewed
      ? await approveReviewed(ctx, flags.reviewed, flags)
      : flags.resume
        ? await approveResume(ctx, flags, stateDir)
        : await approveNow(ctx, flags);
  if (typeof approved === 'number') return approved;
  try {
    if (flags.dryRun) {
      const capabilities = approved.capabilities ?? (await approved.client.capabilities());
      const phases = batchPlan(runnableActions(approved), capabilities.queueThreshold);
      ctx.stdout.write(renderApplyCalls(phases, approved.client.url));
      return EXIT.ok;
    }
    const paths = statePaths(stateDir, approved.client.url, resolve(ctx.cwd, approved.configPath));
    return await runApproved(ctx, approved, paths, flags);
  } finally {
    await approved.client.close();
  }
}

function checkFlags(planfile: string | undefined, flags: ApplyFlags): void {
  if (!FORMATS.includes(flags.format)) {
    throw new SvcError('USAGE', `unknown --format ${flags.format}`, {
      hint: `use one of ${FORMATS.join(', ')}`,
    });
  }
  checkApprovalParameters({
    planFile: planfile !== undefined,
    reviewed: flags.reviewed !== undefined,
    resume: flags.resume === true,
    autoApprove: flags.autoApprove === true,
    dryRun: flags.dryRun === true,
    targets: flags.target !== undefined,
  });
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

function runnableActions(approved: Approved): Action[] {
  return approved.plan.actions.filter((action) => !approved.holdBack?.(action));
}

async function runApproved(
  ctx: CliContext,
  approved: Approved,
  paths: StatePaths,
  flags: ApplyFlags,
): Promise<number> {
  const warnings = [...approved.warnings];
  const warn = (message: string) => {
    ctx.stderr.write(`svc-gitops: warning: ${terminalText(message)}\n`);
    warnings.push(message);
  };
  const progress = createProgress(ctx.stderr, { clock: () => ctx.now().getTime() });
  let verificationError: ApplyReport['verificationError'];
  let verificationSkipped: ApplyReport['verificationSkipped'];
  let unreachable: ApplyReport['unreachable'];
  const result = await withApplyLock(ctx.fs, paths, ctx.now(), warn, async () => {
    let capabilities = approved.capabilities;
    if (approved.savedPlan) {
      if (isPlanUsed(ctx.fs, paths.usedPlans, approved.plan.id)) throw alreadyUsed(approved.plan.id);
      // The re-check reads the dashboard too: Ctrl-C must stop it as it stops every other read.
      const client = {
        readLive: (options?: ReadLiveOptions) => approved.client.readLive({ ...options, signal: ctx.signal }),
      };
      capabilities = (await checkLiveUnchanged(approved.plan, client)).capabilities;
      markPlanUsed(ctx.fs, paths.usedPlans, approved.plan.id, ctx.now());
    }
    const completed = completedUpdates(readJournal(ctx.fs, paths.journal));
    const journal = openJournal(ctx.fs, paths.journal);
    try {
      return await applyPlan(approved.plan, {
        client: approved.client,
        live: { capabilities: capabilities ?? (await approved.client.capabilities()) },
        settings: approved.settings,
        signal: ctx.signal,
        onEvent: (event) => {
          progress.onEvent(event);
          if (event.type === 'verify-failed')
            verificationError = { code: event.code, message: event.message };
          if (event.type === 'verify-skipped')
            verificationSkipped = { code: event.code, message: event.message };
          if (event.type === 'stopped' && event.code === DASHBOARD_UNREACHABLE)
            unreachable = { message: event.message };
        },
        journal,
        maxFailures: approved.maxFailures,
        holdBack: combineHoldBacks(skipCompleted(completed), approved.holdBack),
        now: ctx.now,
      });
    } finally {
      journal.close();
      progress.finish();
    }
  });
  const report: ApplyReport = {
    result,
    dashboard: approved.client.url,
    approval: approved.approval,
    ...(approved.reviewed ? { reviewed: approved.reviewed } : {}),
    ...(verificationError ? { verificationError } : {}),
    ...(verificationSkipped ? { verificationSkipped } : {}),
    ...(unreachable ? { unreachable } : {}),
    warnings,
  };
  const rendered =
    flags.format === 'json'
      ? renderApplyJson(report)
      : flags.format === 'markdown'
        ? renderApplyMarkdown(report)
        : renderApplyText(report);
  ctx.stdout.write(rendered);
  if (flags.out) writeReport(ctx, flags.out, rendered);
  if (result.interrupted) {
    ctx.stderr.write(
      `svc-gitops: interrupted: the journal is in ${paths.journal}; run \`svc-gitops apply --resume\` to finish\n`,
    );
    return EXIT.interrupted;
  }
  if (unreachable) {
    // A failed apply (exit 1), not an interrupted one: the person did not stop it.
    const notStarted = countNotStarted(result.outcomes);
    ctx.stderr.write(
      `svc-gitops: the dashboard could not be reached: ${notStarted} action(s) not started; the journal is in ${paths.journal}; once the dashboard answers again, run \`svc-gitops apply --resume\` to finish\n`,
    );
    return EXIT.error;
  }
  // Success only when every action is confirmed: a failed one, or one the re-read could not
  // confirm, makes the run an error.
  const unsettled = result.outcomes.some((outcome) => outcome.status === 'failed' || outcome.unverified);
  return unsettled ? EXIT.error : EXIT.ok;
}

function writeReport(ctx: CliContext, out: string, text: string): void {
  try {
    ctx.fs.writeFileSync(resolve(ctx.cwd, out), text);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new SvcError('IO_ERROR', `cannot write the report to ${out} (${String(code ?? error)})`, {
      hint: 'the apply itself finished: its report is printed above',
      cause: error,
    });
  }
}
