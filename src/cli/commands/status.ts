import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { EXIT } from '../../errors.js';
import {
  actionsRun,
  configKey,
  githubClientFromEnv,
  marker,
  publishToRun,
  type Repository,
  upsertDriftIssue,
} from '../../github/index.js';
import type { SessionStatus } from '../../index.js';
import { renderStatusMarkdown, renderStatusText, statusTitle } from '../../render/index.js';
import type { CliContext } from '../context.js';
import { jsonLine } from '../format-option.js';
import { issueRepository } from '../issue-repository.js';
import { cliSession } from '../pipeline.js';

type StatusFormat = 'text' | 'markdown' | 'json';

interface StatusFlags {
  config?: string;
  format: StatusFormat;
  issue?: boolean;
  label: string;
  quiet?: boolean;
}

/**
 * `svc-gitops status`: the dashboard's standing overview (the engine session's `status`: a plan
 * made now, grouped by state, with the last apply's failures). With `--issue`, one GitHub issue
 * per dashboard is kept up to date in place (the drift issue's code, with its own marker and
 * label); it stays open, as a dashboard does. Exit 0, or 1 on an error.
 */
export function registerStatus(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('status')
    .description('what is pending, soaking, waiting, held, quarantined, failed or vulnerable, per item')
    .option('-c, --config <path>', 'desired-state file or directory')
    .addOption(
      new Option('--format <format>', 'output format (json: {"kind":"status", groups, …})')
        .choices(['text', 'markdown', 'json'])
        .default('text'),
    )
    .option('--issue', 'keep one GitHub issue per dashboard up to date (GITHUB_REPOSITORY, GITHUB_TOKEN)')
    .option('--label <name>', 'label of the status issue', 'svc-gitops-dashboard')
    .option('-q, --quiet', 'no progress lines while reading the dashboard')
    .action(async (flags: StatusFlags) => setExit(await runStatus(ctx, flags)));
}

export async function runStatus(ctx: CliContext, flags: StatusFlags): Promise<number> {
  const run = actionsRun(ctx.env);
  const repository = issueRepository(ctx, flags.issue, 'leave out --issue to print the status only');
  const session = cliSession(ctx, { quiet: flags.quiet });
  let planned: SessionStatus;
  try {
    planned = await session.status({ config: flags.config });
  } finally {
    await session.close();
  }
  const key = configKey(resolve(ctx.cwd, planned.configPath), run.workspace ?? ctx.cwd);
  const markdown = renderStatusMarkdown(planned.status, { configKey: key, runUrl: run.runUrl });
  let issue: IssueLine | undefined;
  const outputs: Record<string, string> = { 'plan-id': planned.plan.id };
  // The issue, the summary and the outputs are written before stdout (as drift does).
  try {
    if (repository) {
      issue = await upsertStatusIssue(ctx, repository, planned, markdown, { key, label: flags.label });
      if (issue.number !== undefined) outputs['issue-number'] = String(issue.number);
    }
    publishToRun(ctx.fs, run, { summary: markdown, outputs });
  } finally {
    printStatus(ctx, planned, flags.format, markdown, issue);
  }
  return EXIT.ok;
}

async function upsertStatusIssue(
  ctx: CliContext,
  repository: Repository,
  planned: SessionStatus,
  markdown: string,
  flags: { key: string; label: string },
): Promise<IssueLine> {
  const markerLine = marker('status', planned.plan.dashboard.url);
  const client = githubClientFromEnv(ctx.env, ctx.signal);
  try {
    // Bodies go to GitHub past the output mask: masked as stdout is (see comment.ts).
    const body = `${markerLine}\n${markdown}`;
    const result = await upsertDriftIssue(client, {
      repository,
      marker: markerLine,
      label: flags.label,
      title: statusTitle(planned.plan.dashboard.url, flags.key),
      body: ctx.redact ? ctx.redact(body) : body,
      // A dashboard issue stays open: it is never resolved, only rewritten.
      hasDrift: true,
      resolvedComment: '',
    });
    if (result.labelDropped) {
      ctx.stderr.write(
        `svc-gitops: warning: GitHub did not keep the label ${flags.label}; the issue is still found by its marker\n`,
      );
    }
    return { action: result.action, number: result.number, url: result.url };
  } finally {
    await client.close();
  }
}

interface IssueLine {
  action: string;
  number?: number | undefined;
  url?: string | undefined;
}

function printStatus(
  ctx: CliContext,
  planned: SessionStatus,
  format: StatusFormat,
  markdown: string,
  issue: IssueLine | undefined,
): void {
  if (format === 'json') {
    const document = {
      kind: 'status',
      ...planned.status,
      history_file: planned.historyFile,
      issue: issue ?? null,
    };
    ctx.stdout.write(jsonLine(document));
    return;
  }
  ctx.stdout.write(format === 'markdown' ? markdown : renderStatusText(planned.status));
  if (issue) {
    const which = issue.number === undefined ? '' : ` #${issue.number}`;
    ctx.stdout.write(
      `svc-gitops: status issue${which} ${issue.action}${issue.url ? `: ${issue.url}` : ''}\n`,
    );
  }
}
