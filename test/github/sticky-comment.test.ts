import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createGitHubClient,
  type GitHubClient,
  marker,
  upsertStickyComment,
} from '../../src/github/index.js';
import { GITHUB_BODY_LIMIT } from '../../src/render/index.js';
import { type FakeGitHub, type FakeGitHubOptions, startFakeGitHub } from './fake-github.js';

const repository = { owner: 'acme', repo: 'sites' };
const prod = marker('plan', 'fleets/prod.yaml');
let fake: FakeGitHub;
let client: GitHubClient;

async function start(options: FakeGitHubOptions = {}) {
  fake = await startFakeGitHub(options);
  client = createGitHubClient({ token: fake.token, apiUrl: fake.url, retryDelayMs: 0 });
}
/** A new run: a new client (and so a new look-up of the token's user) against the same fake. */
async function nextRun() {
  await client.close();
  client = createGitHubClient({ token: fake.token, apiUrl: fake.url, retryDelayMs: 0 });
}
beforeEach(() => start());
afterEach(async () => {
  await client.close();
  await fake.close();
});

const upsert = (body: string, issueNumber = 12, markerLine = prod) =>
  upsertStickyComment(client, {
    repository,
    issueNumber,
    marker: markerLine,
    body: `${markerLine}\n${body}`,
  });
const writes = () => fake.requests.filter((r) => r.method !== 'GET');

describe('sticky plan comment', () => {
  it('creates the comment when the pull request has none', async () => {
    fake.addComment('acme/sites', 12, 'LGTM');
    const result = await upsert('plan A');
    expect(result.action).toBe('created');
    expect(result.url).toMatch(/#issuecomment-\d+$/);
    expect(fake.comments.filter((c) => c.issue === 12)).toHaveLength(2);
    expect(fake.comments.at(-1)?.body).toBe(`${prod}\nplan A`);
  });

  it('updates the same comment in place on the next push, never adding one', async () => {
    const first = await upsert('plan A');
    const second = await upsert('plan B');
    expect(second).toMatchObject({ action: 'updated', id: first.id });
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.body).toBe(`${prod}\nplan B`);
    expect(writes().map((r) => r.method)).toEqual(['POST', 'PATCH']);
  });

  it('leaves an identical comment alone (no notification for an unchanged plan)', async () => {
    await upsert('plan A');
    const again = await upsert('plan A');
    expect(again.action).toBe('unchanged');
    expect(writes()).toHaveLength(1);
  });

  it('finds its comment among hundreds of comments across pages', async () => {
    for (let i = 0; i < 240; i += 1) fake.addComment('acme/sites', 12, `chatter ${i}`);
    await upsert('plan A');
    for (let i = 0; i < 120; i += 1) fake.addComment('acme/sites', 12, `more chatter ${i}`);
    fake.requests.length = 0;
    const result = await upsert('plan B');
    expect(result.action).toBe('updated');
    expect(fake.requests.filter((r) => r.method === 'GET')).toHaveLength(4);
    expect(fake.comments.filter((c) => c.body.includes(prod))).toHaveLength(1);
    expect(fake.comments).toHaveLength(361);
  });

  it('keeps one comment per config and per pull request', async () => {
    const staging = marker('plan', 'fleets/staging.yaml');
    await upsert('prod plan');
    await upsert('staging plan', 12, staging);
    await upsert('prod plan on another PR', 13);
    await upsert('prod plan v2');
    expect(fake.comments.map((c) => [c.issue, c.body.split('\n')[1]])).toEqual([
      [12, 'prod plan v2'],
      [12, 'staging plan'],
      [13, 'prod plan on another PR'],
    ]);
  });

  it('does not mistake a quoted marker or a longer key for its own', async () => {
    fake.addComment('acme/sites', 12, `> ${prod}\n> plan A\n\nlooks good`);
    fake.addComment('acme/sites', 12, `${marker('plan', 'fleets/prod.yaml.bak')}\nold`);
    const result = await upsert('plan A');
    expect(result.action).toBe('created');
    expect(fake.comments).toHaveLength(3);
  });

  it('ignores a marked comment a person wrote first, and keeps its own', async () => {
    const planted = fake.addComment('acme/sites', 12, `${prod}\nfake plan: nothing to do`, 'mallory');
    const first = await upsert('plan A');
    expect(first.action).toBe('created');
    expect((await upsert('plan B')).id).toBe(first.id);
    expect(planted.body).toBe(`${prod}\nfake plan: nothing to do`);
    expect(writes().map((r) => r.method)).toEqual(['POST', 'PATCH']);
  });

  it('reports duplicates left by an old race and updates only the oldest', async () => {
    const a = fake.addComment('acme/sites', 12, `${prod}\nold 1`, 'github-actions[bot]');
    a.user.type = 'Bot';
    const b = fake.addComment('acme/sites', 12, `${prod}\nold 2`, 'github-actions[bot]');
    b.user.type = 'Bot';
    const result = await upsert('plan C');
    expect(result).toMatchObject({ action: 'updated', id: a.id, duplicates: [b.id] });
    expect(fake.comments.map((c) => c.body)).toEqual([`${prod}\nplan C`, `${prod}\nold 2`]);
  });

  it('cuts an oversize body below GitHub’s limit and keeps the marker', async () => {
    const huge = 'a line of a very long plan\n'.repeat(5000);
    const result = await upsert(huge);
    expect(result).toMatchObject({ action: 'created', truncated: true });
    const body = fake.comments[0]?.body ?? '';
    expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(body.startsWith(`${prod}\n`)).toBe(true);
    expect(body).toContain('characters were cut');
    expect((await upsert(huge)).action).toBe('unchanged');
  });

  it('reports an API error on create clearly and creates nothing', async () => {
    fake.fail({ method: 'POST', status: 403, body: { message: 'Resource not accessible by integration' } });
    await expect(upsert('plan A')).rejects.toMatchObject({
      code: 'GITHUB_API',
      message:
        'GitHub API POST /repos/acme/sites/issues/12/comments failed with 403: Resource not accessible by integration',
    });
    expect(fake.comments).toHaveLength(0);
  });

  it('stops on a rate limit while listing, before writing anything', async () => {
    for (let i = 0; i < 150; i += 1) fake.addComment('acme/sites', 12, `chatter ${i}`);
    fake.rateLimit('primary', { path: /comments\?/ });
    await expect(upsert('plan A')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(writes()).toHaveLength(0);
  });

  it('a rate limit on the second page also stops it: a partial list never leads to a duplicate', async () => {
    const mine = fake.addComment('acme/sites', 12, `${prod}\nold`, 'github-actions[bot]');
    mine.user.type = 'Bot';
    for (let i = 0; i < 150; i += 1) fake.addComment('acme/sites', 12, `chatter ${i}`);
    fake.fail({ method: 'GET', path: /comments\?.*page=2/, status: 429, headers: { 'retry-after': '30' } });
    await expect(upsert('plan A')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/repos/acme/sites/issues/12/comments?per_page=100',
      '/repos/acme/sites/issues/12/comments?per_page=100&page=2',
    ]);
    expect(fake.comments.filter((c) => c.body.includes(prod))).toHaveLength(1);
  });
});

describe('sticky plan comment: whose marked comment is adopted', () => {
  const asksWhoAmI = () => fake.requests.filter((r) => r.path === '/user').length;

  it('with a personal access token, adopts its own comment on the next run instead of adding one', async () => {
    await client.close();
    await fake.close();
    await start({ personalToken: { login: 'octo-admin' } });
    const first = await upsert('plan A');
    expect(fake.comments[0]?.user).toMatchObject({ login: 'octo-admin', type: 'User' });
    await nextRun();
    expect(await upsert('plan B')).toMatchObject({ action: 'updated', id: first.id });
    await nextRun();
    expect(await upsert('plan B')).toMatchObject({ action: 'unchanged', id: first.id });
    expect(fake.comments.map((c) => c.body)).toEqual([`${prod}\nplan B`]);
    // Asked only by the runs that met a marked comment a person wrote, once each.
    expect(asksWhoAmI()).toBe(2);
  });

  it('with a personal access token, never adopts a marked comment another person wrote', async () => {
    await client.close();
    await fake.close();
    await start({ personalToken: { login: 'octo-admin' } });
    const planted = fake.addComment('acme/sites', 12, `${prod}\nfake plan: nothing to do`, 'mallory');
    const first = await upsert('plan A');
    expect(first.action).toBe('created');
    const again = fake.addComment('acme/sites', 12, `${prod}\nfake plan again`, 'mallory');
    await nextRun();
    expect(await upsert('plan B')).toMatchObject({ action: 'updated', id: first.id, duplicates: [] });
    // The token could edit them (write access): they are left alone because they are not ours.
    expect([planted.body, again.body]).toEqual([
      `${prod}\nfake plan: nothing to do`,
      `${prod}\nfake plan again`,
    ]);
    expect(asksWhoAmI()).toBe(2);
  });

  it('with the workflow token, keeps the bot-only rule: GET /user answers 403 or 404, asked once a run', async () => {
    fake.addComment('acme/sites', 12, `${prod}\nfake plan`, 'mallory');
    fake.addComment('acme/sites', 12, `${prod}\nfake plan 2`, 'eve');
    const first = await upsert('plan A');
    expect(first.action).toBe('created');
    expect(asksWhoAmI()).toBe(1);
    fake.fail({ method: 'GET', path: /^\/user$/, status: 404, body: { message: 'Not Found' } });
    await nextRun();
    expect(await upsert('plan B')).toMatchObject({ action: 'updated', id: first.id });
    expect(asksWhoAmI()).toBe(2);
    expect(fake.comments.filter((c) => c.user.type === 'Bot')).toHaveLength(1);
  });

  it('a secondary rate limit sent as a bare 403 is not taken for an installation token (no duplicate)', async () => {
    await client.close();
    await fake.close();
    await start({ personalToken: { login: 'octo-admin' } });
    const first = await upsert('plan A');
    await nextRun();
    // GitHub: a secondary limit may come as 403 with neither Retry-After nor remaining 0.
    fake.fail({
      method: 'GET',
      path: /^\/user$/,
      status: 403,
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      },
    });
    await expect(upsert('plan B')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(fake.comments.map((c) => c.id)).toEqual([first.id]);
  });

  it('stops when GitHub cannot say who the token is (rate limit): it never guesses', async () => {
    fake.addComment('acme/sites', 12, `${prod}\nfake plan`, 'mallory');
    fake.rateLimit('primary', { path: /^\/user$/ });
    await expect(upsert('plan A')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(writes()).toHaveLength(0);
  });
});
