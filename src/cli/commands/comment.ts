import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadDesiredState, resolveConfigPath, verifyPlanId } from '../../engine/index.js';
import { type Diagnostic, EXIT, isSvcError, SvcError } from '../../errors.js';
import {
  actionsRun,
  configKey,
  eventCommitSha,
  githubClientFromEnv,
  githubToken,
  marker,
  planOutputs,
  publishToRun,
  pullRequestNumber,
  repositoryFromEnv,
  upsertStickyComment,
} from '../../github/index.js';
import { readPlanFile, type SessionPlan } from '../../index.js';
import {
  artifactHint,
  type ChangeView,
  type CommentRefusal,
  capBody,
  type PlanCommentInput,
  planCommentFrame,
  planFailedComment,
  planJsonChunks,
  planTextChunks,
  renderDiagnosticsGithub,
  renderPlanMarkdown,
  safeText,
  validationComment,
} from '../../render/index.js';
import type { LiveState, Plan } from '../../types.js';
import { compareOrExplain } from '../compare-to.js';
import type { CliContext } from '../context.js';
import { jsonLine, type TextOrJson, textOrJsonOption } from '../format-option.js';
import { cliSession } from '../pipeline.js';
import { refuseConfigAsOutput, writeFileAtomic } from '../write-file.js';
import { failsCheck, refusalAnnotations, savedPlanRefusals, withFix } from './comment-refusals.js';

interface CommentFlags {
  config?: string;
  planFile?: string;
  compareTo?: string;
  out?: string;
  pr?: string;
  artifactName: string;
  artifactUrl?: string;
  dryRun?: boolean;
  quiet?: boolean;
  strict?: boolean;
  format: TextOrJson;
}

type Obtained =
  | { plan: Plan; live?: LiveState; refusals?: CommentRefusal[]; change?: ChangeView }
  | { diagnostics: Diagnostic[] }
  /** Planning failed for another known reason: the comment says so, then the error is reported. */
  | { failed: SvcError };

/**
 * `svc-gitops comment`: one sticky plan comment per pull request and config, the same text in
 * the step summary, step outputs for the action, and validation errors as annotations (with a
 * comment saying there is no plan, so a stale plan never stays up as if it were current).
 */
export function registerComment(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('comment')
    .description('post or update the plan as one sticky pull-request comment (GitHub Actions)')
    .option('-c, --config <path>', 'desired-state file or directory (also names the comment)')
    .option(
      '--plan-file <file>',
      'comment this saved plan (`svc-gitops plan --out FILE`) instead of planning now',
    )
    .option(
      '--compare-to <ref>',
      'lead with what this change does: plan the desired state at the merge base of REF and HEAD (read with git) on the same dashboard read, and show the difference first',
    )
    .option(
      '--out <file>',
      'when planning now, also save the JSON plan to FILE and the full text plan beside it (FILE with .txt), for the artifact',
    )
    .option('--pr <number>', 'pull request number (default: from GITHUB_EVENT_PATH)')
    .option('--artifact-name <name>', 'name of the artifact that holds the JSON plan', 'svc-gitops-plan')
    .option('--artifact-url <url>', 'link to that artifact (default: this workflow run)')
    .option('--dry-run', 'print the comment instead of posting it (still writes summary and outputs)')
    .addOption(textOrJsonOption('the comment posted or its body, the step outputs and any diagnostics'))
    .option(
      '--strict',
      'names the dashboard does not know fail the check (exit 1), said first in the comment (also: strict setting, SVC_STRICT)',
    )
    .option('-q, --quiet', 'no progress lines while reading the dashboard')
    .action(async (flags: CommentFlags) => setExit(await runComment(ctx, flags)));
}

export async function runComment(ctx: CliContext, flags: CommentFlags): Promise<number> {
  const run = actionsRun(ctx.env);
  const configPath = resolveConfigPath(ctx.fs, ctx.cwd, flags.config);
  if (flags.out) refuseConfigAsOutput(ctx.fs, ctx.cwd, flags.out, configPath);
  const root = run.workspace ?? ctx.cwd;
  const key = configKey(resolve(ctx.cwd, configPath), root);
  const toRepoPath = (file: string) => configKey(resolve(ctx.cwd, file), root);
  // Where to post (and the token) are checked before planning: a mistake there costs no dashboard reads.
  const target = flags.dryRun
    ? undefined
    : {
        repository: repositoryFromEnv(ctx.env, 'preview the comment without GitHub: --dry-run'),
        issueNumber: pullRequestNumber(ctx.env, ctx.fs, flags.pr),
      };
  if (target) githubToken(ctx.env);
  const commitSha = eventCommitSha(ctx.env, ctx.fs);
  const common = {
    marker: marker('plan', key),
    configKey: key,
    now: ctx.now(),
    ...(commitSha ? { commitSha } : {}),
  };

  const obtained = await obtainPlan(ctx, flags, configPath);
  // stdout is written last, once the files, summary and outputs are complete (or have failed):
  // what a command saves never depends on whether its output is read to the end (`| head`).
  let printed = '';
  // With --format json: one document in place of the printed lines (none when planning failed:
  // the error document reports that).
  let document: Record<string, unknown> | undefined;
  try {
    let body: string;
    if ('failed' in obtained) {
      const { code, message, hint } = obtained.failed;
      body = planFailedComment({ ...common, failure: { code, message, ...(hint ? { hint } : {}) } }).body;
    } else if ('diagnostics' in obtained) {
      printed += renderDiagnosticsGithub(obtained.diagnostics.map((d) => inRepository(d, toRepoPath)));
      body = validationComment({ ...common, diagnostics: obtained.diagnostics }, toRepoPath).body;
    } else {
      if (flags.out) {
        writeFileAtomic(ctx.fs, ctx.cwd, flags.out, planJsonChunks(obtained.plan));
        // The comment is capped; the whole plan for people travels in the artifact too.
        writeFileAtomic(ctx.fs, ctx.cwd, textPlanPath(flags.out), planTextChunks(obtained.plan));
      }
      const url = flags.artifactUrl ?? run.runUrl;
      body = planBody({
        ...common,
        ...obtained,
        artifact: url ? { name: flags.artifactName, url } : { name: flags.artifactName },
      });
    }

    // The body goes to GitHub and the step summary, past the output mask: masked as stdout would
    // be (an error or a diagnostic may quote a value, and a secret typed into the YAML is one).
    if (ctx.redact) body = ctx.redact(body);
    const outputs: Record<string, string> = 'plan' in obtained ? planOutputs(obtained.plan) : {};
    if (flags.planFile) outputs['plan-file'] = resolve(ctx.cwd, flags.planFile);
    else if (flags.out) {
      outputs['plan-file'] = resolve(ctx.cwd, flags.out);
      if ('plan' in obtained) outputs['plan-text-file'] = resolve(ctx.cwd, textPlanPath(flags.out));
    }
    let posted: { action: string; url: string } | null = null;
    if (target === undefined) {
      printed += body.endsWith('\n') ? body : `${body}\n`;
    } else {
      const client = githubClientFromEnv(ctx.env, ctx.signal);
      try {
        const result = await upsertStickyComment(client, { ...target, marker: common.marker, body });
        const where = `${target.repository.owner}/${target.repository.repo}#${target.issueNumber}`;
        printed += `svc-gitops: comment ${result.action} on ${where}: ${result.url}\n`;
        posted = { action: result.action, url: result.url };
        if (result.duplicates.length > 0) {
          ctx.stderr.write(
            `svc-gitops: warning: other comments carry the same marker (ids ${result.duplicates.join(', ')}); only the oldest is updated\n`,
          );
        }
        outputs['comment-url'] = result.url;
      } finally {
        await client.close();
      }
    }
    const refusals = 'plan' in obtained ? (obtained.refusals ?? []) : [];
    for (const refusal of refusals) {
      const level = failsCheck(refusal) ? 'error' : 'warning';
      ctx.stderr.write(
        `svc-gitops: ${level}: the apply after the merge would refuse this plan (${refusal.code}): ${safeText(refusal.message)}\n`,
      );
    }
    // In a workflow, each refusal is also an annotation on the check, where the reviewer looks.
    if (ctx.env.GITHUB_ACTIONS === 'true' && flags.format !== 'json') printed += refusalAnnotations(refusals);
    const published = publishToRun(ctx.fs, run, { summary: body, outputs });
    if (published.summary?.truncated)
      ctx.stderr.write('svc-gitops: warning: the step summary was cut to its 1 MiB limit\n');
    if ('failed' in obtained) throw obtained.failed;
    document = {
      kind: 'comment',
      result: 'diagnostics' in obtained ? 'invalid' : 'plan',
      comment: posted,
      body: posted ? null : body,
      diagnostics: 'diagnostics' in obtained ? obtained.diagnostics : [],
      outputs,
    };
    return 'diagnostics' in obtained || refusals.some(failsCheck) ? EXIT.error : EXIT.ok;
  } finally {
    if (flags.format !== 'json') ctx.stdout.write(printed);
    else if (document) ctx.stdout.write(jsonLine(document));
  }
}

/** `plan.json` → `plan.txt`; any other name gets `.txt` added. */
export function textPlanPath(jsonPath: string): string {
  return /\.json$/i.test(jsonPath) ? jsonPath.replace(/\.json$/i, '.txt') : `${jsonPath}.txt`;
}

async function obtainPlan(ctx: CliContext, flags: CommentFlags, configPath: string): Promise<Obtained> {
  if (flags.planFile) {
    if (flags.out)
      throw new SvcError('USAGE', '--out saves a plan made now; it cannot be used with --plan-file');
    if (flags.compareTo !== undefined)
      throw new SvcError(
        'USAGE',
        '--compare-to plans the base on a live read made now; it cannot be used with --plan-file',
      );
    const plan = readPlanFile(ctx.fs, resolve(ctx.cwd, flags.planFile));
    if (!verifyPlanId(plan)) {
      throw new SvcError(
        'PLAN_INVALID',
        `${flags.planFile} does not match its plan id: it was changed after planning`,
        {
          hint: 'comment the file exactly as `svc-gitops plan --out FILE` wrote it',
        },
      );
    }
    return { plan, refusals: savedPlanRefusals(ctx, plan) };
  }
  try {
    const session = cliSession(ctx, { quiet: flags.quiet });
    let planned: SessionPlan;
    try {
      planned = await session.plan({ config: configPath, strict: flags.strict });
    } finally {
      await session.close();
    }
    const change =
      flags.compareTo === undefined
        ? undefined
        : await compareOrExplain(ctx, planned, session.settings().planLifetimeMinutes, flags.compareTo);
    const refusals = planned.refusals.map(withFix);
    return { plan: planned.plan, live: planned.live, refusals, ...(change ? { change } : {}) };
  } catch (error) {
    // A bug, or an interrupt, is reported as it is; a known failure also replaces the comment.
    if (!isSvcError(error) || error.code === 'INTERRUPTED') throw error;
    if (error.code !== 'CONFIG_INVALID') return { failed: error };
    // Load again only on this failure path, for the located diagnostics the comment lists.
    const { diagnostics } = await loadDesiredState({
      path: configPath,
      fs: ctx.fs,
      cwd: ctx.cwd,
      signal: ctx.signal,
    });
    if (!diagnostics.some((d) => d.severity === 'error')) throw error;
    return { diagnostics };
  }
}

/** The diagnostic with repository-relative files: GitHub attaches annotations to files by that path. */
function inRepository(d: Diagnostic, toRepoPath: (file: string) => string): Diagnostic {
  const related = d.related?.map((r) => ({ ...r, file: toRepoPath(r.file) }));
  return { ...d, ...(d.file ? { file: toRepoPath(d.file) } : {}), ...(related ? { related } : {}) };
}

/** The rendered plan, capped to the room the comment's head and tail leave. */
function planBody(input: PlanCommentInput & { live?: LiveState }): string {
  const frame = planCommentFrame(input);
  const markdown = renderPlanMarkdown(input.plan, {
    maxChars: frame.room,
    fullPlanHint: artifactHint(input.artifact),
    haltAbove: true,
    // The frame holds the one title; with a change above, the plan is the backlog.
    heading: input.change ? '### The whole plan after the merge (backlog)' : '### The whole plan',
    ...(input.live ? { live: input.live } : {}),
  });
  return capBody({ head: frame.head, main: markdown.trim(), tail: frame.tail }).body;
}
