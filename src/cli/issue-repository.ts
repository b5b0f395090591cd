import { githubToken, type Repository, repositoryFromEnv } from '../github/index.js';
import type { CliContext } from './context.js';

/**
 * The repository an `--issue` run keeps its issue in, with its token checked too: both before
 * planning, so a missing repository or token costs no dashboard read. Undefined without
 * `--issue`; `without` says what the command does then.
 */
export function issueRepository(
  ctx: CliContext,
  issue: boolean | undefined,
  without: string,
): Repository | undefined {
  if (!issue) return undefined;
  const repository = repositoryFromEnv(ctx.env, without);
  githubToken(ctx.env);
  return repository;
}
