import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { wordfenceRecords } from '../../scripts/bench/security-feed-fixture.js';
import { loadFeed } from '../../src/security/index.js';
import type { SecurityConfig } from '../../src/types.js';
import { svcError } from '../helpers/errors.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * Downloads with undici from a loopback server standing in for Wordfence: the key travels as a
 * bearer header only, the cache is used while younger than refresh_after, a failed download
 * falls back to the cache with a warning, an old feed warns, and a cut feed is refused without
 * replacing the cache.
 */
const KEY = 'wfi-key-7Hq2LmZpX9cR4vTn';
const FEED = `{${[...wordfenceRecords({ records: 20, seed: 5, recordBytes: 600 })].join(',')}}`;
const T0 = new Date('2026-11-28T00:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

type Mode = 'ok' | 'fail' | 'cut' | 'drop';
let mode: Mode = 'ok';
let requests = 0;
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      res.writeHead(401).end('{"message":"Unauthorized"}');
      return;
    }
    if (mode === 'fail') res.writeHead(503).end();
    else if (mode === 'cut')
      res.writeHead(200, { 'content-type': 'application/json' }).end(FEED.slice(0, 5000));
    else if (mode === 'drop') {
      res.writeHead(200, { 'content-length': String(FEED.length) });
      res.write(FEED.slice(0, 4000), () => res.destroy());
    } else res.writeHead(200, { 'content-type': 'application/json' }).end(FEED);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/intelligence/v3/vulnerabilities/production`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = (): SecurityConfig => ({
  source: { type: 'wordfence', feed: 'production', url },
  refreshAfter: { text: '1h', ms: 3_600_000 },
  maxAge: { text: '2d', ms: 172_800_000 },
  bypass: { soak: true, window: true },
  approval: { coreNeedsApproval: true, majorNeedsApproval: true },
  sourceRef: { file: 'svc-gitops.yaml', line: 1, col: 1, path: '/security' },
});

describe('downloading and caching the Wordfence feed', () => {
  let stateDir: string;
  let warnings: string[];
  beforeEach(() => {
    stateDir = tempDirForFile('svc-gitops-feed-cache-');
    warnings = [];
    mode = 'ok';
    requests = 0;
  });
  const load = (now: Date, apiKey = KEY) =>
    loadFeed(config(), { stateDir, apiKey, now, onWarning: (m) => warnings.push(m) });

  it('downloads once, then uses the cache until refresh_after has passed', async () => {
    const first = await load(T0);
    expect(first.records).toBe(20);
    expect(first.feed).toEqual({ source: url, fetched_at: T0.toISOString() });
    await load(minutes(59));
    expect(requests).toBe(1);
    const again = await load(minutes(61));
    expect(requests).toBe(2);
    expect(again.feed.fetched_at).toBe(minutes(61).toISOString());
    expect(warnings).toEqual([]);
  });

  it('falls back to the cache when a download fails, and warns once the feed is older than max_age', async () => {
    await load(T0);
    mode = 'fail';
    const cached = await load(minutes(120));
    expect(cached.feed.fetched_at).toBe(T0.toISOString());
    expect(warnings).toEqual([
      `downloading the feed ${url} failed (HTTP 503); using the feed cached ${T0.toISOString()}`,
    ]);
    warnings.length = 0;
    await load(minutes(3 * 24 * 60));
    expect(warnings[1]).toBe(`the vulnerability feed ${url} is 3d old, older than security.max_age (2d)`);
  });

  it('refuses a cut feed or a dropped connection and keeps the cache as it was', async () => {
    await load(T0);
    const cache = readFileSync(
      join(stateDir, 'feeds', readdirSync(join(stateDir, 'feeds')).find((n) => !n.includes('meta'))!),
    );
    mode = 'cut';
    const cut = await svcError(load(minutes(61)));
    expect(cut.code).toBe('FEED_INVALID');
    expect(cut.message).toMatch(
      new RegExp(
        `^${url}: byte 5000: the feed ends at byte 5000 inside the record that starts at byte \\d+: truncated; the feed was not used$`,
      ),
    );
    mode = 'drop';
    const dropped = await svcError(load(minutes(62)));
    expect(dropped.message).toContain('the feed was not used');
    mode = 'ok';
    // The cache still holds the first download whole: a later run within refresh_after reads it.
    const files = readdirSync(join(stateDir, 'feeds'));
    expect(files.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(readFileSync(join(stateDir, 'feeds', files.find((n) => !n.includes('meta'))!))).toEqual(cache);
  });

  it('a refused key and a missing key are errors that never show the key', async () => {
    const refused = await svcError(load(T0, 'not-the-key-Qw9Zx'));
    expect(refused.code).toBe('AUTH_FAILED');
    expect(refused.message).toBe(`the feed ${url} refused the API key (HTTP 401)`);
    expect(JSON.stringify({ ...refused, message: refused.message, hint: refused.hint })).not.toContain(
      'not-the-key',
    );
    const missing = await svcError(loadFeed(config(), { stateDir, now: T0 }));
    expect(missing.code).toBe('SETTINGS_INVALID');
    expect(missing.hint).toContain('SVC_FEED_API_KEY');
  });
});
