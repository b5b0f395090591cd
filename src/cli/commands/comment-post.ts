import { githubClientFromEnv, type Repository, upsertStickyComment } from '../../github/index.js';
import type { CliContext } from '../context.js';

/** Where the comment goes: a pull request of a repository. */
export interface CommentTarget {
  repository: Repository;
  issueNumber: number;
}

/**
 * Creates or updates the one sticky comment carrying `marker`, and says where. Other comments
 * with the same marker are left alone, with a warning: only the oldest is the comment.
 */
export async function postComment(
  ctx: CliContext,
  target: CommentTarget,
  marker: string,
  body: string,
): Promise<{ action: string; url: string; printed: string }> {
  const client = githubClientFromEnv(ctx.env, ctx.signal);
  try {
    const result = await upsertStickyComment(client, { ...target, marker, body });
    const where = `${target.repository.owner}/${target.repository.repo}#${target.issueNumber}`;
    if (result.duplicates.length > 0) {
      ctx.stderr.write(
        `svc-gitops: warning: other comments carry the same marker (ids ${result.duplicates.join(', ')}); only the oldest is updated\n`,
      );
    }
    return {
      action: result.action,
      url: result.url,
      printed: `svc-gitops: comment ${result.action} on ${where}: ${result.url}\n`,
    };
  } finally {
    await client.close();
  }
}
