import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { EXIT } from '../../errors.js';
import {
  actionsRun,
  configKey,
  githubClientFromEnv,
  marker,
  planOutputs,
  publishToRun,
  upsertDriftIssue,
} from '../../github/index.js';
import { refusedNames, type UnknownName } from '../../index.js';
import {
  DEFAULT_BODY_BUDGET,
  driftIssueBody,
  driftResolvedComment,
  driftTitle,
  type GroupBy,
  renderPlanMarkdown,
  safeText,
} from '../../render/index.js';
import type { CliContext } from '../context.js';
import { issueRepository } from '../issue-repository.js';
import { cliSession } from '../pipeline.js';
import { groupByOption, type PlanFormat, printPlan } from '../print-plan.js';
import { FAIL_ON_VULNERABLE_HELP, failsOnVulnerable } from '../vulnerable-exit.js';

interface DriftFlags {
  config?: string;
  format: PlanFormat;
  groupBy?: GroupBy;
  issue?: boolean;
  label: string;
  quiet?: boolean;
  strict?: boolean;
  failOnVulnerable?: boolean;
}

/** Room the issue's own text around the rendered plan needs. */
const ISSUE_FRAME_CHARS = 2_000;

/**
 * `svc-gitops drift`: plan against the live dashboard; drift is a plan with actions. Exit 0 no
 * drift, 2 drift, 3 the rollout is halted, 1 error (like `plan --detailed-exitcode`); with
 * `--fail-on-vulnerable`, 4 when the plan lists sites vulnerable with no fix. With `--issue`, one issue per
 * dashboard is created or updated while drift lasts and closed with a comment when it is gone.
 */
export function registerDrift(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('drift')
    .description('detect drift between the YAML and the dashboard (exit 2 when there is drift)')
    .option('-c, --config <path>', 'desired-state file or directory')
    .addOption(
      new Option('--format <format>', 'output format (json: the plan, as `plan --format json`)')
        .choices(['text', 'markdown', 'json'])
        .default('text'),
    )
    .addOption(groupByOption())
    .option('--issue', 'keep one GitHub issue per dashboard up to date (GITHUB_REPOSITORY, GITHUB_TOKEN)')
    .option('--label <name>', 'label of the drift issue', 'svc-gitops-drift')
    .option(
      '--strict',
      'exit 1 when the desired state names a site or slug the dashboard does not know (also: strict setting, SVC_STRICT)',
    )
    .option('--fail-on-vulnerable', FAIL_ON_VULNERABLE_HELP)
    .option('-q, --quiet', 'no progress lines while reading the dashboard')
    .action(async (flags: DriftFlags) => setExit(await runDrift(ctx, flags)));
}

export async function runDrift(ctx: CliContext, flags: DriftFlags): Promise<number> {
  const run = actionsRun(ctx.env);
  const repository = issueRepository(ctx, flags.issue, 'leave out --issue to print the report only');
  const session = cliSession(ctx, { quiet: flags.quiet });
  let planned: Awaited<ReturnType<typeof session.drift>>;
  try {
    planned = await session.drift({ config: flags.config, strict: flags.strict });
  } finally {
    await session.close();
  }
  const { strict } = planned;
  const unknown = refusedNames(planned.unknown);
  // A halted rollout is drift until resolved: the issue stays open and says so first.
  const { plan, live, drift } = planned;
  // The issue, the summary and the outputs are written before stdout: what a command saves never
  // depends on whether its output is read to the end (`drift --issue | head`).
  let issueLine: string | undefined;

  const key = configKey(resolve(ctx.cwd, planned.configPath), run.workspace ?? ctx.cwd);
  const markdown = renderPlanMarkdown(plan, { live, maxChars: DEFAULT_BODY_BUDGET - ISSUE_FRAME_CHARS });
  const outputs: Record<string, string> = { ...planOutputs(plan), 'has-drift': String(drift) };
  try {
    if (repository) {
      const now = ctx.now();
      const markerLine = marker('drift', plan.dashboard.url);
      const client = githubClientFromEnv(ctx.env, ctx.signal);
      try {
        const result = await upsertDriftIssue(client, {
          repository,
          marker: markerLine,
          label: flags.label,
          title: driftTitle(plan.dashboard.url, key),
          // Bodies go to GitHub past the output mask: masked as stdout is (see comment.ts).
          body: redacted(
            ctx,
            driftIssueBody({
              marker: markerLine,
              configKey: key,
              plan,
              planMarkdown: markdown,
              now,
              ...run,
            }),
          ),
          hasDrift: drift,
          resolvedComment: redacted(ctx, driftResolvedComment(plan, now)),
        });
        const which = result.number === undefined ? '' : ` #${result.number}`;
        issueLine = `svc-gitops: drift issue${which} ${result.action}${result.url ? `: ${result.url}` : ''}\n`;
        if (result.labelDropped) {
          ctx.stderr.write(
            `svc-gitops: warning: GitHub did not keep the label ${flags.label}; the issue is still found by its marker\n`,
          );
        }
        if (result.number !== undefined) outputs['issue-number'] = String(result.number);
      } finally {
        await client.close();
      }
    }
    publishToRun(ctx.fs, run, { summary: markdown, outputs });
  } finally {
    await printPlan(ctx, plan, flags.format, flags.groupBy);
    // stdout of --format json is the plan document alone; the verdict is also the exit code.
    const verdictTo = flags.format === 'json' ? ctx.stderr : ctx.stdout;
    verdictTo.write(drift ? 'svc-gitops: drift found\n' : 'svc-gitops: no drift\n');
    if (issueLine) verdictTo.write(issueLine);
  }
  // Under strict a name the dashboard does not know is an error, as it is for `plan`.
  if (strict && unknown.length > 0) return refuseNames(ctx, unknown);
  if (plan.rollout_halt) return EXIT.halted;
  const failOnVulnerable = flags.failOnVulnerable || session.settings().failOnVulnerable;
  if (failsOnVulnerable(ctx, plan, failOnVulnerable)) return EXIT.vulnerable;
  return drift ? EXIT.changes : EXIT.ok;
}

function refuseNames(ctx: CliContext, unknown: readonly UnknownName[]): number {
  for (const name of unknown) {
    const hint = name.suggestion === undefined ? '' : ` (did you mean ${name.suggestion}?)`;
    ctx.stderr.write(`svc-gitops: error: ${safeText(name.message)}${safeText(hint)}\n`);
  }
  return EXIT.error;
}

function redacted(ctx: CliContext, text: string): string {
  return ctx.redact ? ctx.redact(text) : text;
}
