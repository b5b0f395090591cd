import { isSvcError } from '../errors.js';
import { markedBody } from './body-limit.js';
import type { GitHubClient } from './client.js';
import { type Repository, repoPath } from './repository.js';

/**
 * One open pull request per config that changes one file of the desired state (the quarantine
 * holds). Its branch is reset to the base branch and the file written whole on each run, so the
 * pull request always shows exactly this run's proposal on top of the base, whatever an earlier
 * run or a person pushed there; an open pull request of that branch is updated, else one is
 * opened. Writes go through the REST API (refs, contents, pulls): no checkout or git push.
 */
export interface HoldPullRequest {
  repository: Repository;
  /** The branch the pull request merges into. */
  base: string;
  /** The branch svc-gitops owns for this config. */
  branch: string;
  /** The file's path in the repository, forward slashes. */
  path: string;
  content: string;
  commitMessage: string;
  title: string;
  marker: string;
  body: string;
}

export interface HoldPullRequestResult {
  action: 'created' | 'updated';
  number: number;
  url?: string;
  truncated: boolean;
}

interface Ref {
  object: { sha: string };
}
interface Pull {
  number: number;
  html_url?: string;
}

export async function upsertHoldPullRequest(
  client: GitHubClient,
  request: HoldPullRequest,
): Promise<HoldPullRequestResult> {
  const repo = repoPath(request.repository);
  const base = await client.request<Ref>('GET', `${repo}/git/ref/heads/${refPath(request.base)}`);
  const branchRef = `${repo}/git/ref/heads/${refPath(request.branch)}`;
  if (await exists(() => client.request<Ref>('GET', branchRef))) {
    await client.request('PATCH', `${repo}/git/refs/heads/${refPath(request.branch)}`, {
      sha: base.object.sha,
      force: true,
    });
  } else {
    await client.request('POST', `${repo}/git/refs`, {
      ref: `refs/heads/${request.branch}`,
      sha: base.object.sha,
    });
  }
  const contents = `${repo}/contents/${request.path.split('/').map(encodeURIComponent).join('/')}`;
  const current = await exists(() =>
    client.request<{ sha: string }>('GET', `${contents}?ref=${encodeURIComponent(request.branch)}`),
  );
  await client.request('PUT', contents, {
    message: request.commitMessage,
    content: Buffer.from(request.content, 'utf8').toString('base64'),
    branch: request.branch,
    ...(current ? { sha: current.sha } : {}),
  });
  const { body, truncated } = markedBody(request.marker, request.body);
  const head = `${encodeURIComponent(request.repository.owner)}:${encodeURIComponent(request.branch)}`;
  const open = await client.request<Pull[]>('GET', `${repo}/pulls?state=open&head=${head}&per_page=100`);
  const [pull] = open;
  if (pull) {
    const updated = await client.request<Pull>('PATCH', `${repo}/pulls/${pull.number}`, {
      title: request.title,
      body,
    });
    return { action: 'updated', number: pull.number, ...url(updated.html_url ? updated : pull), truncated };
  }
  const created = await client.request<Pull>('POST', `${repo}/pulls`, {
    title: request.title,
    head: request.branch,
    base: request.base,
    body,
  });
  return { action: 'created', number: created.number, ...url(created), truncated };
}

/** A branch name as a ref path: each segment encoded, the slashes kept. */
function refPath(branch: string): string {
  return branch.split('/').map(encodeURIComponent).join('/');
}

/** The answer, or undefined when GitHub says 404 (no such ref or file). */
async function exists<T>(get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (error) {
    if (isSvcError(error) && error.details.status === 404) return undefined;
    throw error;
  }
}

function url(pull: Pull): { url?: string } {
  return pull.html_url ? { url: pull.html_url } : {};
}
