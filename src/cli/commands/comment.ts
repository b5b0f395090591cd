import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveConfigPath } from '../../engine/index.js';
import { EXIT } from '../../errors.js';
import {
  actionsRun,
  configKey,
  eventCommitSha,
  githubToken,
  marker,
  publishToRun,
  pullRequestNumber,
  repositoryFromEnv,
} from '../../github/index.js';
import type { CliContext } from '../context.js';
import { jsonLine, textOrJsonOption } from '../format-option.js';
import { failsOnVulnerable } from '../vulnerable-exit.js';
import { refuseConfigAsOutput } from '../write-file.js';
import { commentBody } from './comment-body.js';
import type { CommentFlags } from './comment-flags.js';
import { obtainPlan } from './comment-obtain.js';
import { commentOutputs, saveForArtifact } from './comment-outputs.js';
import { type CommentTarget, postComment } from './comment-post.js';
import { failsCheck, refusalAnnotations, warnRefusals } from './comment-refusals.js';

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
  // Where to post (and the token) are checked before planning: a mistake there costs no dashboard reads.
  const target = commentTarget(ctx, flags);
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
    saveForArtifact(ctx, flags, obtained);
    const url = flags.artifactUrl ?? run.runUrl;
    const artifact = url ? { name: flags.artifactName, url } : { name: flags.artifactName };
    const made = commentBody(obtained, common, artifact, (file) => configKey(resolve(ctx.cwd, file), root));
    printed += made.printed;
    // The body goes to GitHub and the step summary, past the output mask: masked as stdout would
    // be (an error or a diagnostic may quote a value, and a secret typed into the YAML is one).
    const body = ctx.redact ? ctx.redact(made.body) : made.body;
    const outputs = commentOutputs(ctx, flags, obtained);
    let posted: { action: string; url: string } | null = null;
    if (target === undefined) printed += body.endsWith('\n') ? body : `${body}\n`;
    else {
      const result = await postComment(ctx, target, common.marker, body);
      printed += result.printed;
      posted = { action: result.action, url: result.url };
      outputs['comment-url'] = result.url;
    }
    const refusals = 'plan' in obtained ? (obtained.refusals ?? []) : [];
    warnRefusals(ctx, refusals);
    // In a workflow, each refusal is also an annotation on the check, where the reviewer looks.
    if (ctx.env.GITHUB_ACTIONS === 'true' && flags.format !== 'json') printed += refusalAnnotations(refusals);
    const published = publishToRun(ctx.fs, run, { summary: body, outputs });
    if (published.summary?.truncated)
      ctx.stderr.write('svc-gitops: warning: the step summary was cut to its 1 MiB limit\n');
    if ('failed' in obtained) throw obtained.failed;
    const invalid = 'diagnostics' in obtained;
    document = {
      kind: 'comment',
      result: invalid ? 'invalid' : 'plan',
      comment: posted,
      body: posted ? null : body,
      diagnostics: invalid ? obtained.diagnostics : [],
      outputs,
    };
    if (invalid || refusals.some(failsCheck)) return EXIT.error;
    return 'plan' in obtained && failsOnVulnerable(ctx, obtained.plan, obtained.failOnVulnerable)
      ? EXIT.vulnerable
      : EXIT.ok;
  } finally {
    if (flags.format !== 'json') ctx.stdout.write(printed);
    else if (document) ctx.stdout.write(jsonLine(document));
  }
}

/** The pull request to post to, with its token checked; none with --dry-run. */
function commentTarget(ctx: CliContext, flags: CommentFlags): CommentTarget | undefined {
  if (flags.dryRun) return undefined;
  const target = {
    repository: repositoryFromEnv(ctx.env, 'preview the comment without GitHub: --dry-run'),
    issueNumber: pullRequestNumber(ctx.env, ctx.fs, flags.pr),
  };
  githubToken(ctx.env);
  return target;
}
