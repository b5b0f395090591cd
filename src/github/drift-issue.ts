import { markedBody } from './body-limit.js';
import type { GitHubClient } from './client.js';
import { isOwnMarked } from './marker.js';
import { type Repository, repoPath } from './repository.js';

/**
 * One open issue per dashboard describing its drift. The issue is found by its marker (on an
 * issue a bot or the token's own user opened, marker.ts) among the open issues carrying the
 * label; if the label could not be set (GitHub silently drops labels when the token may not
 * label issues) all open issues are searched by marker, so a missing label never leads to a
 * second issue. The list endpoint is used rather than search: search results lag behind writes,
 * which would let two runs a minute apart both create an issue.
 *
 * With drift: create, or update title/body in place (unchanged content is not rewritten).
 * Without drift: comment on and close the open issue. Extra open issues with the same marker
 * (left by an earlier race) are closed as superseded, so at most one stays open.
 */
export interface DriftIssueRequest {
  repository: Repository;
  marker: string;
  label: string;
  title: string;
  /** Full body; must start with the marker line (prepended when it does not). */
  body: string;
  hasDrift: boolean;
  /** Posted on the issue before it is closed because the drift is gone. */
  resolvedComment: string;
}

export interface DriftIssueResult {
  action: 'created' | 'updated' | 'unchanged' | 'closed' | 'none';
  number?: number;
  url?: string;
  /** Issues closed because another issue already tracks this dashboard. */
  supersededNumbers: number[];
  /** True when GitHub did not keep the label on a created issue. */
  labelDropped: boolean;
  /** True when the body had to be cut below GitHub's limit. */
  truncated: boolean;
}

interface Issue {
  number: number;
  title?: string;
  body?: string | null;
  html_url?: string;
  pull_request?: unknown;
  labels?: Array<{ name?: string } | string>;
  user?: { type?: string; id?: number } | null;
}

export async function upsertDriftIssue(
  client: GitHubClient,
  request: DriftIssueRequest,
): Promise<DriftIssueResult> {
  const base = `${repoPath(request.repository)}/issues`;
  const { body, truncated } = markedBody(request.marker, request.body);
  const open = await findMarkedOpenIssues(client, base, request.marker, request.label);
  const [current, ...extra] = open;
  const result: DriftIssueResult = { action: 'none', supersededNumbers: [], labelDropped: false, truncated };

  if (!request.hasDrift) {
    for (const issue of open)
      await closeIssue(client, base, issue.number, request.resolvedComment, 'completed');
    if (current === undefined) return result;
    return { ...result, action: 'closed', number: current.number, ...url(current) };
  }

  for (const issue of extra) {
    await closeIssue(client, base, issue.number, `Superseded by #${current?.number}.`, 'not_planned');
    result.supersededNumbers.push(issue.number);
  }
  if (current === undefined) {
    const created = await client.request<Issue>('POST', base, {
      title: request.title,
      body,
      labels: [request.label],
    });
    const labelDropped = !labelNames(created).includes(request.label);
    return { ...result, action: 'created', number: created.number, ...url(created), labelDropped };
  }
  if (current.title === request.title && current.body === body) {
    return { ...result, action: 'unchanged', number: current.number, ...url(current) };
  }
  const updated = await client.request<Issue>('PATCH', `${base}/${current.number}`, {
    title: request.title,
    body,
  });
  return {
    ...result,
    action: 'updated',
    number: current.number,
    ...url(updated.html_url ? updated : current),
  };
}

/** Open issues (not pull requests) that carry the marker, oldest first. */
async function findMarkedOpenIssues(
  client: GitHubClient,
  base: string,
  markerLine: string,
  label: string,
): Promise<Issue[]> {
  const byLabel = await collect(
    client,
    `${base}?state=open&labels=${encodeURIComponent(label)}&per_page=100`,
    markerLine,
  );
  if (byLabel.length > 0) return byLabel;
  return collect(client, `${base}?state=open&per_page=100`, markerLine);
}

async function collect(client: GitHubClient, path: string, markerLine: string): Promise<Issue[]> {
  const found: Issue[] = [];
  for await (const page of client.paginate<Issue>(path)) {
    for (const issue of page) {
      if (!issue.pull_request && (await isOwnMarked(issue, markerLine, () => client.tokenUser())))
        found.push(issue);
    }
  }
  return found.sort((a, b) => a.number - b.number);
}

async function closeIssue(
  client: GitHubClient,
  base: string,
  number: number,
  comment: string,
  reason: 'completed' | 'not_planned',
): Promise<void> {
  await client.request('POST', `${base}/${number}/comments`, { body: comment });
  await client.request('PATCH', `${base}/${number}`, { state: 'closed', state_reason: reason });
}

function labelNames(issue: Issue): string[] {
  return (issue.labels ?? []).map((l) => (typeof l === 'string' ? l : (l.name ?? '')));
}

function url(issue: Issue): { url?: string } {
  return issue.html_url ? { url: issue.html_url } : {};
}
