import { SvcError } from '../errors.js';

/**
 * Turns a failed GitHub REST response into one SvcError. The code is decided from the status and
 * the rate-limit headers: RATE_LIMITED for a 429, an exhausted primary limit or a secondary limit
 * with Retry-After, GITHUB_API for everything else. GitHub may also send a secondary limit as a
 * bare 403 (neither header, "wait at least a minute"): only its message tells it from a missing
 * permission, so a 403 whose message names a rate limit is RATE_LIMITED too. Messages name the method,
 * the path, the status and GitHub's own message; they never contain request headers (the token).
 */
export interface FailedResponse {
  method: string;
  /** Path and query relative to the API base, e.g. `/repos/o/r/issues/3/comments?page=2`. */
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  now: Date;
}

const MESSAGE_LIMIT = 500;

/** How a workflow passes its token to svc-gitops (`${{ … }}` is an Actions expression, split to stay a plain string). */
export const WORKFLOW_TOKEN_HINT =
  'in a workflow set `GITHUB_TOKEN: $' + "{{ github.token }}` under the step's `env:`";

export function githubResponseError(response: FailedResponse): SvcError {
  const { method, path, status } = response;
  const message = githubMessage(response.body);
  const said = message ? `: ${message}` : '';
  const details = { method, path, status, githubMessage: message };
  const retryAfter = header(response.headers, 'retry-after');
  const remaining = header(response.headers, 'x-ratelimit-remaining');
  const limited = remaining === '0' || retryAfter !== undefined || /\brate limit/i.test(message);
  if (status === 429 || (status === 403 && limited)) {
    return new SvcError(
      'RATE_LIMITED',
      `GitHub API rate limit hit: ${method} ${path} returned ${status}${said}`,
      {
        hint: rateLimitHint(retryAfter, header(response.headers, 'x-ratelimit-reset'), response.now),
        details: { ...details, retryAfter, rateLimitReset: header(response.headers, 'x-ratelimit-reset') },
      },
    );
  }
  return new SvcError('GITHUB_API', `GitHub API ${method} ${path} failed with ${status}${said}`, {
    hint: statusHint(status),
    details,
  });
}

/** GitHub's `message` plus the messages of a 422's `errors` list, bounded in length. */
export function githubMessage(body: unknown): string {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' ? clip(body.trim()) : '';
  const record = body as { message?: unknown; errors?: unknown };
  const parts: string[] = typeof record.message === 'string' ? [record.message] : [];
  if (Array.isArray(record.errors)) {
    for (const entry of record.errors) {
      if (typeof entry === 'string') parts.push(entry);
      else if (entry && typeof entry === 'object') {
        const { message, field, code } = entry as { message?: unknown; field?: unknown; code?: unknown };
        if (typeof message === 'string') parts.push(message);
        else if (typeof field === 'string' || typeof code === 'string')
          parts.push(`${field ?? '?'} ${code ?? ''}`.trim());
      }
    }
  }
  return clip(parts.join('; '));
}

function statusHint(status: number): string {
  if (status === 401) return `GITHUB_TOKEN is missing, expired or invalid; ${WORKFLOW_TOKEN_HINT}`;
  if (status === 403)
    return 'the token lacks a permission: comments need `pull-requests: write`, drift issues need `issues: write` in the workflow `permissions:` (fork pull requests get a read-only token)';
  if (status === 404)
    return 'check GITHUB_REPOSITORY and the pull request or issue number; GitHub also answers 404 when the token cannot see the repository';
  if (status === 422) return 'GitHub rejected the request content (see its message above)';
  if (status >= 500) return 'GitHub had a server error; re-run the job';
  return 'see GitHub’s message above';
}

function rateLimitHint(retryAfter: string | undefined, reset: string | undefined, now: Date): string {
  const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds))
    return `GitHub asks to wait ${seconds} s (Retry-After) before retrying; re-run the job then`;
  const resetAt = reset === undefined ? Number.NaN : Number(reset) * 1000;
  if (Number.isFinite(resetAt)) {
    const minutes = Math.max(0, Math.ceil((resetAt - now.getTime()) / 60_000));
    return `the rate limit resets at ${new Date(resetAt).toISOString()} (in about ${minutes} min); re-run the job then`;
  }
  return 'wait a few minutes and re-run the job';
}

function header(headers: FailedResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function clip(text: string): string {
  return text.length > MESSAGE_LIMIT ? `${text.slice(0, MESSAGE_LIMIT)}…` : text;
}
