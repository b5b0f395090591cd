import { resolve } from 'node:path';
import { appendOutputs } from '../github/index.js';
import { historyPath, stateDirOf } from '../index.js';
import type { CliContext } from './context.js';
import { cliSettings } from './pipeline.js';

/** The artifact the workflow templates upload the history file as (examples/github). */
export const HISTORY_ARTIFACT = 'svc-gitops-history';

/**
 * After an apply in the Action: names the history file in the output `history-file` (for the
 * workflow's upload-artifact step) and ends the apply report with a link to the run whose
 * artifacts hold it. The link is the run page: an artifact's own address exists only once the
 * upload step, which runs after this one, has made it.
 */
export function linkHistory(ctx: CliContext, env: CliContext['env'], reportFile: string): void {
  let file: string;
  try {
    file = historyPath(resolve(ctx.cwd, stateDirOf(env)), cliSettings({ ...ctx, env }).historyFile);
  } catch {
    return; // settings that do not load: apply has already said so
  }
  if (!ctx.fs.existsSync(file)) return;
  const outputs = env.GITHUB_OUTPUT;
  if (outputs) appendOutputs(ctx.fs, outputs, { 'history-file': file });
  const run = runUrl(env);
  if (run === undefined || !ctx.fs.existsSync(reportFile)) return;
  ctx.fs.appendFileSync(
    reportFile,
    `\nPer-site history of this apply: artifact \`${HISTORY_ARTIFACT}\` of [this workflow run](${run}) (JSON Lines; \`svc-gitops history --file FILE\` prints it).\n`,
  );
}

function runUrl(env: CliContext['env']): string | undefined {
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  const repository = env.GITHUB_REPOSITORY;
  const runId = env.GITHUB_RUN_ID;
  if (!repository || !runId || !/^[\w.-]+\/[\w.-]+$/.test(repository) || !/^\d+$/.test(runId))
    return undefined;
  if (!/^https:\/\/[\w.-]+(:\d+)?$/.test(server)) return undefined;
  return `${server}/${repository}/actions/runs/${runId}`;
}
