import { relative, resolve } from 'node:path';
import {
  actionsRun,
  configKey,
  createGitHubClient,
  marker,
  repositoryFromEnv,
  upsertHoldPullRequest,
} from '../github/index.js';
import { loadDesired, quarantineProposal } from '../index.js';
import { quarantinePullRequestBody, quarantinePullRequestTitle, safeText } from '../render/index.js';
import type { CliContext } from './context.js';

/**
 * After the action's scheduled rollout: the versions its health checks quarantined that the
 * desired state does not hold yet become one pull request per config, adding the holds with the
 * evidence in its body (the engine's quarantineProposal says what; github's upsert writes it).
 * Needs the github-token input (contents and pull-requests write); without a token or a
 * repository nothing is proposed. A failure warns and never changes the step's outcome: the
 * rollout state holds the versions whatever happens to the pull request.
 */
export async function proposeQuarantine(ctx: CliContext, token: string, config: string): Promise<void> {
  if (token === '' || !ctx.env.GITHUB_REPOSITORY) return;
  try {
    const load = await loadDesired({ cwd: ctx.cwd, config: config === '' ? undefined : config, fs: ctx.fs });
    if (!load.desired) return;
    const proposal = quarantineProposal(ctx.fs, ctx.cwd, load.configPath, load.desired, ctx.now());
    if (!proposal) return;
    const run = actionsRun(ctx.env);
    const root = run.workspace ?? ctx.cwd;
    const key = configKey(resolve(ctx.cwd, load.configPath), root);
    const path = relative(root, proposal.file).replace(/\\/g, '/');
    const repository = repositoryFromEnv(ctx.env);
    const client = createGitHubClient({ token, apiUrl: run.apiUrl, signal: ctx.signal });
    try {
      const base =
        ctx.env.GITHUB_REF_NAME ||
        (
          await client.request<{ default_branch: string }>(
            'GET',
            `/repos/${repository.owner}/${repository.repo}`,
          )
        ).default_branch;
      const result = await upsertHoldPullRequest(client, {
        repository,
        base,
        branch: `svc-gitops/quarantine/${key.replace(/[^A-Za-z0-9_/-]/g, '-')}`,
        path,
        content: proposal.text,
        commitMessage: quarantinePullRequestTitle(proposal.quarantines),
        title: quarantinePullRequestTitle(proposal.quarantines),
        marker: marker('quarantine', key),
        body: quarantinePullRequestBody({
          marker: marker('quarantine', key),
          file: path,
          quarantines: proposal.quarantines,
          runUrl: run.runUrl,
        }),
      });
      const where = result.url ? `: ${result.url}` : '';
      ctx.stdout.write(
        `${result.action === 'created' ? 'Opened' : 'Updated'} the quarantine pull request #${result.number}${where}\n`,
      );
    } finally {
      await client.close();
    }
  } catch (error) {
    const why = safeText(error instanceof Error ? error.message : String(error));
    ctx.stdout.write(
      `::warning title=svc-gitops::the quarantine pull request could not be written (${why})\n`,
    );
  }
}
