import { SvcError } from '../errors.js';

export interface Repository {
  owner: string;
  repo: string;
}

/** GitHub's own rules: owner and name of letters, digits, `-`, `_` and `.` (no `..`). */
const SEGMENT = /^(?!\.\.?$)[A-Za-z0-9_.-]{1,100}$/;

/** Parses `owner/name` (as in GITHUB_REPOSITORY); anything else is a USAGE error. */
export function parseRepository(
  value: string | undefined,
  source = 'GITHUB_REPOSITORY',
  alternative?: string,
): Repository {
  const [owner, repo, ...rest] = (value ?? '').trim().split('/');
  if (
    owner === undefined ||
    repo === undefined ||
    rest.length > 0 ||
    !SEGMENT.test(owner) ||
    !SEGMENT.test(repo)
  ) {
    throw new SvcError('USAGE', `${source} must be "owner/name", got ${JSON.stringify(value ?? '')}`, {
      hint: `GitHub Actions sets GITHUB_REPOSITORY; elsewhere set it by hand, e.g. GITHUB_REPOSITORY=acme/sites${alternative ? `, or ${alternative}` : ''}`,
    });
  }
  return { owner, repo };
}

/** `/repos/{owner}/{repo}` for building API paths. */
export function repoPath(repository: Repository): string {
  return `/repos/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.repo)}`;
}
