import { SvcError } from '../errors.js';
import { markedBody } from './body-limit.js';
import type { GitHubClient } from './client.js';
import { isOwnMarked } from './marker.js';
import { type Repository, repoPath } from './repository.js';

/**
 * One comment per pull request and marker, kept up to date in place. Every page of the
 * conversation is read (comments are listed oldest first), so the marked comment is found among
 * any number of comments; the oldest marked comment written by a bot or by the token's own user
 * (marker.ts) is the one updated: a marker another person copied into a comment of theirs is
 * ignored. If an earlier race left several, the others are reported as duplicates, never
 * multiplied. An identical body is not written again (GitHub would record a pointless edit in
 * the comment's history).
 */
export interface StickyCommentRequest {
  repository: Repository;
  issueNumber: number;
  /** The exact marker line (see marker.ts); the body must start with it or it is prepended. */
  marker: string;
  body: string;
}

export interface StickyCommentResult {
  action: 'created' | 'updated' | 'unchanged';
  id: number;
  url: string;
  /** Ids of further comments carrying the same marker (left untouched). */
  duplicates: number[];
  /** True when the body had to be cut below GitHub's limit here. */
  truncated: boolean;
}

interface IssueComment {
  id: number;
  body?: string;
  html_url?: string;
  user?: { type?: string; id?: number } | null;
}

export async function upsertStickyComment(
  client: GitHubClient,
  request: StickyCommentRequest,
): Promise<StickyCommentResult> {
  if (!Number.isSafeInteger(request.issueNumber) || request.issueNumber < 1) {
    throw new SvcError('USAGE', `not a pull request number: ${request.issueNumber}`);
  }
  const { body, truncated } = markedBody(request.marker, request.body);
  const issue = `${repoPath(request.repository)}/issues/${request.issueNumber}`;

  const matches: IssueComment[] = [];
  for await (const page of client.paginate<IssueComment>(`${issue}/comments?per_page=100`)) {
    for (const comment of page) {
      if (await isOwnMarked(comment, request.marker, () => client.tokenUser())) matches.push(comment);
    }
  }

  const [existing, ...others] = matches;
  const duplicates = others.map((c) => c.id);
  if (existing === undefined) {
    const created = checked(
      await client.request<IssueComment>('POST', `${issue}/comments`, { body }),
      'POST',
    );
    return { action: 'created', id: created.id, url: created.html_url ?? '', duplicates, truncated };
  }
  if (existing.body === body) {
    return { action: 'unchanged', id: existing.id, url: existing.html_url ?? '', duplicates, truncated };
  }
  const path = `${repoPath(request.repository)}/issues/comments/${existing.id}`;
  const updated = checked(await client.request<IssueComment>('PATCH', path, { body }), 'PATCH');
  return {
    action: 'updated',
    id: updated.id,
    url: updated.html_url ?? existing.html_url ?? '',
    duplicates,
    truncated,
  };
}

function checked(comment: IssueComment, method: string): IssueComment {
  if (typeof comment !== 'object' || comment === null || typeof comment.id !== 'number') {
    throw new SvcError('BAD_RESPONSE', `GitHub API ${method} of a comment returned no comment id`);
  }
  return comment;
}
