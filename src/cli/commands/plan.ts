import { type Command, Option } from 'commander';
import { durationMs, resolveConfigPath } from '../../engine/index.js';
import { EXIT, SvcError } from '../../errors.js';
import type { ReviewRefusal, SessionPlan } from '../../index.js';
import {
  type ChangeView,
  changeMarkdown,
  changeText,
  type GroupBy,
  planJsonChunks,
  safeText,
  shortId,
} from '../../render/index.js';
import { compareWithBase } from '../compare-to.js';
import type { CliContext } from '../context.js';
import { cliSession } from '../pipeline.js';
import { groupByOption, type PlanFormat, printPlan } from '../print-plan.js';
import { FAIL_ON_VULNERABLE_HELP, failsOnVulnerable } from '../vulnerable-exit.js';
import { refuseConfigAsOutput, writeFileAtomic } from '../write-file.js';

interface PlanFlags {
  config?: string;
  out?: string;
  format: PlanFormat;
  groupBy?: GroupBy;
  detailedExitcode?: boolean;
  failOnVulnerable?: boolean;
  target?: string[];
  refresh?: boolean;
  strict?: boolean;
  quiet?: boolean;
  at?: string;
  compareTo?: string;
}

/**
 * `svc-gitops plan`: the dry-run preview. Reads, never writes to the dashboard (except the
 * optional `--refresh` sync). Exit 0; with --detailed-exitcode 2 when the plan has changes; 3
 * while the rollout is halted (the plan's `rollout_halt`); with --fail-on-vulnerable 4 when the
 * plan lists sites vulnerable with no fix.
 */
export function registerPlan(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('plan')
    .description('show what apply would change: ignores, unignores and updates, without changing anything')
    .option(
      '-c, --config <path>',
      'desired-state file or directory (default: svc-gitops.yaml, else svc-gitops/)',
    )
    .option('--out <file>', 'also save the plan as JSON, for `svc-gitops apply FILE`')
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text'),
    )
    .addOption(groupByOption())
    .option('--detailed-exitcode', 'exit 2 when the plan has changes, 0 when it has none')
    .option('--fail-on-vulnerable', FAIL_ON_VULNERABLE_HELP)
    .option(
      '--compare-to <ref>',
      'first show what changes against REF: the desired state at the merge base of REF and HEAD (read with git), planned on the same dashboard read; text and markdown only',
    )
    .option('--target <site...>', 'only these sites (IDs, domains or globs)')
    .option('--refresh', 'ask the dashboard to re-sync the managed sites before reading')
    .option(
      '--strict',
      'exit 1 when the desired state names a site or slug the dashboard does not know (also: strict setting, SVC_STRICT)',
    )
    .option('-q, --quiet', 'no progress lines while reading the dashboard')
    .option(
      '--at <time>',
      'preview: what the gates (windows, soak times, waves) allow at a later time (ISO time or +90m, +24h, +3d); records nothing, cannot be saved or applied',
    )
    .action(async (flags: PlanFlags) => setExit(await plan(ctx, flags)));
}

export async function plan(ctx: CliContext, flags: PlanFlags): Promise<number> {
  const at = flags.at === undefined ? undefined : previewTime(flags.at, ctx.now());
  if (flags.compareTo !== undefined && flags.format === 'json') {
    throw new SvcError('USAGE', '--compare-to shows the difference in text or markdown, not JSON', {
      hint: 'use --format text or markdown; save each plan with --out to compare JSON',
    });
  }
  if (at && flags.out) {
    throw new SvcError('CONFLICTING_PARAMETERS', '--at previews a later time: such a plan cannot be saved', {
      hint: 'leave out --out to preview, or --at to save a plan for apply',
    });
  }
  if (at) {
    ctx.stderr.write(
      `Preview at ${at.toISOString()}: the gates are judged then, from what is known now; nothing is recorded, and apply never takes this plan.\n`,
    );
  }
  if (flags.out)
    refuseConfigAsOutput(ctx.fs, ctx.cwd, flags.out, resolveConfigPath(ctx.fs, ctx.cwd, flags.config));
  const {
    plan: result,
    unknown: judged,
    strict,
    refusals,
    change,
    failOnVulnerable,
  } = await planned(ctx, flags, at);
  const unknown = judged.filter((name) => !name.unchecked);
  // A plan built on a misspelt name is not saved for apply.
  const refused = strict && unknown.length > 0;
  // The file is complete before stdout sees a byte: what a command saves never depends on
  // whether its output is read to the end (`| head`).
  const saved =
    flags.out && !refused
      ? writeFileAtomic(ctx.fs, ctx.cwd, flags.out, planJsonChunks(result, { groupBy: flags.groupBy }))
      : undefined;
  if (change)
    ctx.stdout.write(
      flags.format === 'markdown' ? `${changeMarkdown(change).join('\n')}\n\n` : changeText(change),
    );
  await printPlan(ctx, result, flags.format, flags.groupBy);
  warnOfRefusals(ctx, refusals);
  for (const name of judged) {
    if (name.unchecked) {
      ctx.stderr.write(`svc-gitops: note: ${safeText(name.message)}\n`);
      continue;
    }
    const hint = name.suggestion === undefined ? '' : ` (did you mean ${name.suggestion}?)`;
    ctx.stderr.write(
      `svc-gitops: ${strict ? 'error' : 'warning'}: ${safeText(name.message)}${safeText(hint)}\n`,
    );
  }
  if (refused) {
    ctx.stderr.write(
      `svc-gitops: error [CONFIG_INVALID]: --strict: the desired state names ${unknown.length} site${unknown.length === 1 ? '' : 's'} or slug${unknown.length === 1 ? '' : 's'} the dashboard does not know${flags.out ? '; the plan was not saved' : ''}\n`,
    );
    return EXIT.error;
  }
  if (saved !== undefined) {
    // With --group-by the file carries the same groups as stdout's JSON; its id is the same.
    ctx.stderr.write(
      `Saved plan ${shortId(result.id)} to ${saved} (expires ${result.expires_at}); apply it with: svc-gitops apply ${flags.out}\n`,
    );
  }
  if (result.rollout_halt) return EXIT.halted;
  if (failsOnVulnerable(ctx, result, flags.failOnVulnerable || failOnVulnerable)) return EXIT.vulnerable;
  return flags.detailedExitcode && result.actions.length > 0 ? EXIT.changes : EXIT.ok;
}

/**
 * The session's plan, without the live state: only the plan and its judgement leave this
 * function, so the live state (as large as the plan at fleet size) is no longer reachable while
 * the plan is written.
 */
async function planned(
  ctx: CliContext,
  flags: PlanFlags,
  at: Date | undefined,
): Promise<
  Pick<SessionPlan, 'plan' | 'unknown' | 'strict' | 'refusals'> & {
    change?: ChangeView;
    failOnVulnerable: boolean;
  }
> {
  const session = cliSession(ctx, { quiet: flags.quiet });
  try {
    const head = await session.plan({
      config: flags.config,
      targets: flags.target,
      refresh: flags.refresh,
      at,
      strict: flags.strict,
    });
    const { plan: made, unknown, strict, refusals } = head;
    const change =
      flags.compareTo === undefined
        ? undefined
        : await compareWithBase(ctx, head, session.settings().planLifetimeMinutes, flags.compareTo);
    const { failOnVulnerable } = session.settings();
    return { plan: made, unknown, strict, refusals, failOnVulnerable, ...(change ? { change } : {}) };
  } finally {
    await session.close();
  }
}

/**
 * The refusals the apply of this plan would meet, said when the plan is made so a reviewer does
 * not learn them after the merge. Unknown names are listed one by one below; a halted rollout
 * leads the plan's own output, and waiting gates are in its notes.
 */
function warnOfRefusals(ctx: CliContext, refusals: readonly ReviewRefusal[]): void {
  for (const refusal of refusals) {
    if (refusal.code !== 'SAFE_MODE_BLOCKED') continue;
    const high = Number(refusal.details?.high_risk ?? 0);
    ctx.stderr.write(
      `svc-gitops: warning: safe mode is on: apply will refuse this plan (SAFE_MODE_BLOCKED), it holds ${high} high-risk action${high === 1 ? '' : 's'} (core or major updates); after review, apply it with SVC_SAFE_MODE=false (or safeMode: false in the settings file)\n`,
    );
  }
}

/** `--at`: an ISO time, or `+` and a duration (`+90m`, `+24h`, `+3d`, `+2w`) from now; never before now. */
function previewTime(text: string, now: Date): Date {
  const relative = /^\+([0-9]+(?:m|h|d|w))$/.exec(text.trim());
  const at = relative ? new Date(now.getTime() + durationMs(relative[1]!)) : new Date(text);
  if (Number.isNaN(at.getTime()) || (!relative && !/\d{4}-\d{2}-\d{2}/.test(text))) {
    throw new SvcError('USAGE', `--at ${text}: not a time`, {
      hint: 'give an ISO time (2026-11-24T03:00Z) or a duration from now (+90m, +24h, +3d)',
    });
  }
  if (at.getTime() < now.getTime()) {
    throw new SvcError('USAGE', `--at ${text}: ${at.toISOString()} is before now (${now.toISOString()})`, {
      hint: 'a preview looks ahead: give a later time',
    });
  }
  return at;
}
