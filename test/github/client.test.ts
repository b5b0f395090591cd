import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSvcError, type SvcError } from '../../src/errors.js';
import { createGitHubClient, type GitHubClient } from '../../src/github/index.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';

let fake: FakeGitHub;
let client: GitHubClient;

beforeEach(async () => {
  fake = await startFakeGitHub({ prefix: '/api/v3' });
  client = createGitHubClient({ token: fake.token, apiUrl: fake.url, retryDelayMs: 0 });
});
afterEach(async () => {
  await client.close();
  await fake.close();
});

async function failure(promise: Promise<unknown>): Promise<SvcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isSvcError(error)) throw new Error(`expected an SvcError, got ${String(error)}`);
  return error;
}

/** Everything a person could see of an error. */
function visible(error: SvcError): string {
  return `${error.message}\n${error.hint ?? ''}\n${JSON.stringify(error.details)}`;
}

async function all<T>(pages: AsyncGenerator<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const page of pages) out.push(page);
  return out;
}

describe('GitHub client', () => {
  it('sends the token as a bearer header under the API prefix', async () => {
    await client.request('GET', '/repos/acme/sites/issues/1/comments');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/repos/acme/sites/issues/1/comments',
      authorization: `Bearer ${fake.token}`,
    });
  });

  it('follows Link rel="next" through every page', async () => {
    for (let i = 0; i < 205; i += 1) fake.addComment('acme/sites', 7, `comment ${i}`);
    const pages = await all(
      client.paginate<{ body: string }>('/repos/acme/sites/issues/7/comments?per_page=100'),
    );
    expect(pages.map((p) => p.length)).toEqual([100, 100, 5]);
    expect(pages.flat().at(-1)?.body).toBe('comment 204');
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/repos/acme/sites/issues/7/comments?per_page=100',
      '/repos/acme/sites/issues/7/comments?per_page=100&page=2',
      '/repos/acme/sites/issues/7/comments?per_page=100&page=3',
    ]);
  });

  it('reads the fake server’s issue search like GitHub’s (repo, state, label and phrase qualifiers)', async () => {
    fake.addIssue('acme/sites', { title: 'drift', body: 'marker-x', labels: ['svc-gitops-drift'] });
    fake.addIssue('acme/sites', { title: 'other', body: 'marker-x', state: 'closed' });
    fake.addIssue('acme/other', { title: 'elsewhere', body: 'marker-x' });
    const q = encodeURIComponent('repo:acme/sites is:issue is:open label:svc-gitops-drift "marker-x"');
    const result = await client.request<{ total_count: number; items: Array<{ number: number }> }>(
      'GET',
      `/search/issues?q=${q}`,
    );
    expect(result).toMatchObject({ total_count: 1, items: [{ number: 1 }] });
  });

  it('stops at the page bound instead of looping forever', async () => {
    for (let i = 0; i < 30; i += 1) fake.addComment('acme/sites', 7, `c${i}`);
    const bounded = createGitHubClient({ token: fake.token, apiUrl: fake.url, maxPages: 2 });
    const error = await failure(all(bounded.paginate('/repos/acme/sites/issues/7/comments?per_page=10')));
    await bounded.close();
    expect(error.code).toBe('GITHUB_API');
    expect(error.message).toContain('more than 2 pages');
  });

  it('names method, path, status and GitHub’s message on an API error', async () => {
    const error = await failure(
      client.request('PATCH', '/repos/acme/sites/issues/comments/999', { body: 'x' }),
    );
    expect(error.code).toBe('GITHUB_API');
    expect(error.message).toBe(
      'GitHub API PATCH /repos/acme/sites/issues/comments/999 failed with 404: Not Found',
    );
    expect(error.details).toMatchObject({ method: 'PATCH', status: 404 });
    expect(error.hint).toContain('GITHUB_REPOSITORY');
  });

  it('includes the messages of a 422 validation error', async () => {
    const error = await failure(
      client.request('POST', '/repos/acme/sites/issues/1/comments', { body: 'x'.repeat(70_000) }),
    );
    expect(error.message).toContain(
      'failed with 422: Validation Failed; body is too long (maximum is 65536 characters)',
    );
  });

  it('reports a primary rate limit with the reset time', async () => {
    fake.rateLimit('primary');
    const error = await failure(client.request('GET', '/repos/acme/sites/issues?state=open'));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toContain(
      'GitHub API rate limit hit: GET /repos/acme/sites/issues?state=open returned 403',
    );
    expect(error.message).toContain('API rate limit exceeded');
    expect(error.hint).toContain('resets at 2030-01-01T12:00:00.000Z');
  });

  it('reports a secondary rate limit with Retry-After and does not retry it', async () => {
    fake.rateLimit('secondary');
    const error = await failure(client.request('GET', '/repos/acme/sites/issues'));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.hint).toContain('wait 60 s');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a secondary rate limit that comes as a bare 403 as a rate limit, not a permission problem', async () => {
    fake.fail({
      status: 403,
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      },
    });
    const error = await failure(client.request('POST', '/repos/acme/sites/issues/1/comments', { body: 'b' }));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.hint).not.toContain('permission');
  });

  it('treats a 403 without rate-limit headers as a permission problem', async () => {
    fake.fail({ status: 403, body: { message: 'Resource not accessible by integration' } });
    const error = await failure(
      client.request('POST', '/repos/acme/sites/issues', { title: 't', body: 'b' }),
    );
    expect(error.code).toBe('GITHUB_API');
    expect(error.hint).toContain('issues: write');
  });

  it('retries a GET once on 503 but never a POST', async () => {
    fake.fail({ method: 'GET', status: 503 });
    await expect(client.request('GET', '/repos/acme/sites/issues')).resolves.toEqual([]);
    fake.fail({ method: 'POST', status: 503 });
    const error = await failure(client.request('POST', '/repos/acme/sites/issues/1/comments', { body: 'b' }));
    expect(error.message).toContain('failed with 503');
    expect(fake.comments).toHaveLength(0);
    expect(fake.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'POST']);
  });

  it('never puts the token into an error', async () => {
    const wrong = createGitHubClient({ token: 'ghp_wrongTokenSecret123456', apiUrl: fake.url });
    const error = await failure(wrong.request('GET', '/repos/acme/sites/issues'));
    await wrong.close();
    expect(error.message).toContain('401: Bad credentials');
    expect(visible(error)).not.toContain('ghp_wrongTokenSecret123456');
    fake.rateLimit('primary');
    expect(visible(await failure(client.request('GET', '/repos/a/b/issues')))).not.toContain(fake.token);
  });

  it('refuses a pagination link that leaves the API base', async () => {
    fake.fail({
      status: 200,
      body: [],
      headers: { link: '<https://evil.example/steal?page=2>; rel="next"' },
    });
    const error = await failure(all(client.paginate('/repos/acme/sites/issues')));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports an unreachable API as CONNECTION_FAILED', async () => {
    await fake.close();
    const error = await failure(client.request('GET', '/repos/acme/sites/issues'));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('GET /repos/acme/sites/issues');
    fake = await startFakeGitHub();
  });

  it('rejects an empty token and a URL with credentials', () => {
    expect(() => createGitHubClient({ token: '  ' })).toThrow(/empty/);
    expect(() => createGitHubClient({ token: 't', apiUrl: 'https://user:pw@api.github.com' })).toThrow(
      /credentials/,
    );
  });
});

describe('the token user', () => {
  it('is the account of a personal access token, asked once per client', async () => {
    const personal = await startFakeGitHub({ personalToken: { login: 'octo-admin' } });
    const own = createGitHubClient({ token: personal.token, apiUrl: personal.url, retryDelayMs: 0 });
    try {
      const [a, b] = await Promise.all([own.tokenUser(), own.tokenUser()]);
      expect(a).toEqual({ id: personal.account('octo-admin').id, login: 'octo-admin' });
      expect(b).toBe(a);
      expect(await own.tokenUser()).toBe(a);
      expect(personal.requests.map((r) => r.path)).toEqual(['/user']);
    } finally {
      await own.close();
      await personal.close();
    }
  });

  it('is none for an installation token (403, or 404), and other failures are not taken for it', async () => {
    expect(await client.tokenUser()).toBeUndefined();
    fake.fail({ method: 'GET', path: /^\/user$/, status: 404 });
    const other = createGitHubClient({ token: fake.token, apiUrl: fake.url, retryDelayMs: 0 });
    expect(await other.tokenUser()).toBeUndefined();
    await other.close();
    fake.fail({ method: 'GET', path: /^\/user$/, status: 401, body: { message: 'Bad credentials' } });
    const refused = createGitHubClient({ token: fake.token, apiUrl: fake.url, retryDelayMs: 0 });
    const error = await failure(refused.tokenUser());
    await refused.close();
    expect(error).toMatchObject({ code: 'GITHUB_API', details: { status: 401 } });
    expect(visible(error)).not.toContain(fake.token);
  });
});
