import type * as nodeFs from 'node:fs';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { actionsRun, githubToken, parseRepository, pullRequestNumber } from '../../src/github/index.js';

const fs = Volume.fromJSON({
  '/e/pr.json': JSON.stringify({ action: 'synchronize', number: 41, pull_request: { number: 41 } }),
  '/e/comment.json': JSON.stringify({ issue: { number: 9, pull_request: { url: 'x' } } }),
  '/e/push.json': JSON.stringify({ ref: 'refs/heads/main' }),
  '/e/broken.json': '{',
}) as unknown as typeof nodeFs;

describe('Actions environment', () => {
  it('reads the pull request number from the event payload or --pr', () => {
    expect(pullRequestNumber({ GITHUB_EVENT_PATH: '/e/pr.json' }, fs)).toBe(41);
    expect(pullRequestNumber({ GITHUB_EVENT_PATH: '/e/comment.json' }, fs)).toBe(9);
    expect(pullRequestNumber({ GITHUB_EVENT_PATH: '/e/pr.json' }, fs, '7')).toBe(7);
  });

  it('explains why there is no pull request number', () => {
    expect(() =>
      pullRequestNumber({ GITHUB_EVENT_PATH: '/e/push.json', GITHUB_EVENT_NAME: 'push' }, fs),
    ).toThrow('the push event is not about a pull request');
    expect(() => pullRequestNumber({}, fs)).toThrow(/pass --pr N/);
    expect(() => pullRequestNumber({ GITHUB_EVENT_PATH: '/e/broken.json' }, fs)).toThrow(
      /cannot read the event payload/,
    );
    expect(() => pullRequestNumber({}, fs, '12abc')).toThrow(/not a pull request number/);
  });

  it('builds the run link and reads paths, with GitHub’s defaults', () => {
    const run = actionsRun({
      GITHUB_REPOSITORY: 'acme/sites',
      GITHUB_RUN_ID: '123',
      GITHUB_SERVER_URL: 'https://ghe.example/',
      GITHUB_STEP_SUMMARY: '/s.md',
      GITHUB_OUTPUT: ' ',
    });
    expect(run).toEqual({
      serverUrl: 'https://ghe.example',
      apiUrl: 'https://api.github.com',
      runUrl: 'https://ghe.example/acme/sites/actions/runs/123',
      stepSummaryPath: '/s.md',
    });
  });

  it('validates the repository and requires a token', () => {
    expect(parseRepository('acme/sites.io')).toEqual({ owner: 'acme', repo: 'sites.io' });
    for (const bad of ['acme', 'a/b/c', '../x', 'a/..', ''])
      expect(() => parseRepository(bad)).toThrow(/owner\/name/);
    expect(() => githubToken({ GITHUB_TOKEN: '' })).toThrow('GITHUB_TOKEN is not set');
    expect(githubToken({ GITHUB_TOKEN: ' t0k ' })).toBe('t0k');
  });
});
