import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient, marker, upsertDriftIssue } from '../../src/github/index.js';
import { type FakeGitHub, type FakeGitHubOptions, startFakeGitHub } from './fake-github.js';

const repository = { owner: 'acme', repo: 'sites' };
const prod = marker('drift', 'https://dash.example.com/');
const label = 'svc-gitops-drift';
const BOT = { login: 'github-actions[bot]', type: 'Bot' };
let fake: FakeGitHub;
let client: GitHubClient;

async function start(options: FakeGitHubOptions = {}) {
  fake = await startFakeGitHub(options);
  client = createGitHubClient({ token: fake.token, apiUrl: fake.url, retryDelayMs: 0 });
}
beforeEach(() => start());
afterEach(async () => {
  await client.close();
  await fake.close();
});

const run = (hasDrift: boolean, body = 'drift details', markerLine = prod) =>
  upsertDriftIssue(client, {
    repository,
    marker: markerLine,
    label,
    title: 'svc-gitops drift: dash.example.com',
    body: `${markerLine}\n${body}`,
    hasDrift,
    resolvedComment: 'No drift left. Closing.',
  });
const open = () => fake.issues.filter((i) => i.state === 'open' && !i.isPullRequest);

describe('drift issue', () => {
  it('creates one labelled issue when drift appears', async () => {
    fake.addIssue('acme/sites', { title: 'unrelated bug' });
    const result = await run(true);
    expect(result).toMatchObject({ action: 'created', number: 2, labelDropped: false });
    expect(fake.issues[1]).toMatchObject({
      title: 'svc-gitops drift: dash.example.com',
      labels: [label],
      state: 'open',
    });
  });

  it('updates the open issue on the next run instead of opening another', async () => {
    await run(true, 'three changes');
    const second = await run(true, 'two changes');
    expect(second).toMatchObject({ action: 'updated', number: 1 });
    expect(open()).toHaveLength(1);
    expect(open()[0]?.body).toBe(`${prod}\ntwo changes`);
    expect((await run(true, 'two changes')).action).toBe('unchanged');
    expect(fake.requests.filter((r) => r.method !== 'GET')).toHaveLength(2);
  });

  it('comments and closes the issue when the drift is gone', async () => {
    await run(true);
    const result = await run(false);
    expect(result).toMatchObject({ action: 'closed', number: 1 });
    expect(fake.issues[0]).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(fake.comments.map((c) => [c.issue, c.body])).toEqual([[1, 'No drift left. Closing.']]);
    expect((await run(false)).action).toBe('none');
  });

  it('opens a new issue when drift returns after the old one was closed', async () => {
    await run(true);
    await run(false);
    const result = await run(true);
    expect(result).toMatchObject({ action: 'created', number: 2 });
    expect(open().map((i) => i.number)).toEqual([2]);
  });

  it('does nothing without drift and without an issue', async () => {
    expect(await run(false)).toMatchObject({ action: 'none' });
    expect(fake.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('keeps one issue per dashboard and ignores pull requests that carry the marker', async () => {
    fake.addIssue('acme/sites', {
      body: `${prod}\ncopied into a PR description`,
      labels: [label],
      isPullRequest: true,
    });
    const staging = marker('drift', 'https://staging.example.com/');
    await run(true);
    await run(true, 'staging drift', staging);
    await run(true, 'prod again');
    expect(open().map((i) => i.body.split('\n')[1])).toEqual(['prod again', 'staging drift']);
  });

  it('finds its issue among many open issues on several pages', async () => {
    for (let i = 0; i < 130; i += 1)
      fake.addIssue('acme/sites', { labels: [label], body: `${marker('drift', `https://d${i}/`)}\nx` });
    await run(true);
    for (let i = 0; i < 130; i += 1) fake.addIssue('acme/sites', { labels: [label], body: 'noise' });
    expect((await run(true, 'changed')).action).toBe('updated');
    expect(open().filter((i) => i.body.startsWith(prod))).toHaveLength(1);
  });

  it('still finds its issue when GitHub dropped the label (no duplicate)', async () => {
    await client.close();
    await fake.close();
    await start({ dropLabels: true });
    for (let i = 0; i < 120; i += 1) fake.addIssue('acme/sites', { title: `bug ${i}` });
    const first = await run(true);
    expect(first).toMatchObject({ action: 'created', labelDropped: true });
    expect(await run(true, 'later')).toMatchObject({ action: 'updated', number: first.number });
    expect(open().filter((i) => i.body.startsWith(prod))).toHaveLength(1);
  });

  it('closes superseded duplicates so only the oldest stays open', async () => {
    fake.addIssue('acme/sites', { labels: [label], body: `${prod}\nfirst`, user: BOT });
    fake.addIssue('acme/sites', { labels: [label], body: `${prod}\nsecond`, user: BOT });
    const result = await run(true, 'now');
    expect(result).toMatchObject({ action: 'updated', number: 1, supersededNumbers: [2] });
    expect(fake.issues[1]).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
    expect(fake.comments[0]?.body).toBe('Superseded by #1.');
  });

  it('reports a rate limit while listing and writes nothing', async () => {
    fake.rateLimit('secondary', { method: 'GET' });
    await expect(run(true)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(fake.issues).toHaveLength(0);
  });

  it('reports an API error while closing', async () => {
    await run(true);
    fake.fail({ method: 'PATCH', status: 500, body: { message: 'Server Error' } });
    await expect(run(false)).rejects.toMatchObject({
      code: 'GITHUB_API',
      message: 'GitHub API PATCH /repos/acme/sites/issues/1 failed with 500: Server Error',
    });
  });

  it('never adopts, edits or closes an issue a person opened with a copied marker', async () => {
    const planted = fake.addIssue('acme/sites', { body: `${prod}\nfake: no drift here` });
    const drift = await run(true);
    expect(drift.action).toBe('created');
    expect(drift.number).not.toBe(planted.number);
    await run(false);
    expect(planted).toMatchObject({ state: 'open', body: `${prod}\nfake: no drift here` });
  });
});

describe('drift issue with a personal access token', () => {
  beforeEach(async () => {
    await client.close();
    await fake.close();
    await start({ personalToken: { login: 'octo-admin' } });
  });
  /** A new run: a new client, so the token's user is looked up again. */
  const nextRun = async () => {
    await client.close();
    client = createGitHubClient({ token: fake.token, apiUrl: fake.url, retryDelayMs: 0 });
  };

  it('updates and closes the issue its own user opened, never opening a second', async () => {
    const first = await run(true, 'three changes');
    expect(fake.issues[0]?.user).toMatchObject({ login: 'octo-admin', type: 'User' });
    await nextRun();
    expect(await run(true, 'two changes')).toMatchObject({ action: 'updated', number: first.number });
    await nextRun();
    expect(await run(false)).toMatchObject({ action: 'closed', number: first.number });
    expect(fake.issues).toHaveLength(1);
    expect(fake.issues[0]?.state).toBe('closed');
  });

  it('still never adopts or closes an issue another person opened with a copied marker', async () => {
    const copied = { labels: [label], body: `${prod}\nfake`, user: { login: 'mallory' } };
    const planted = fake.addIssue('acme/sites', copied);
    const drift = await run(true);
    expect(drift).toMatchObject({ action: 'created', supersededNumbers: [] });
    await nextRun();
    expect(await run(false)).toMatchObject({ action: 'closed', number: drift.number });
    expect(planted).toMatchObject({ state: 'open', body: `${prod}\nfake` });
  });
});
