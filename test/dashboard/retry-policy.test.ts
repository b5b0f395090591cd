import { afterEach, describe, expect, it } from 'vitest';
import { openConnection } from '../../src/dashboard/connection.js';
import { createTransport, type TransportConfig } from '../../src/dashboard/transport/http.js';
import { nextDelay } from '../../src/dashboard/transport/retry.js';
import { loadSettings } from '../../src/settings/index.js';
import { svcError as failure } from '../helpers/errors.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { json, startServer, type TestServer } from './helpers/server.js';

let server: TestServer | undefined;
afterEach(() => server?.close());

function transportFor(url: string, overrides: Partial<TransportConfig> = {}) {
  return createTransport({
    baseUrl: url,
    timeoutMs: 1000,
    maxResponseSize: 10_000,
    maxSessionData: 1_000_000,
    rateLimit: 0,
    maxAttempts: 4,
    retryBaseDelay: 1,
    retryMaxDelay: 5,
    concurrency: 2,
    skipSslVerify: false,
    ...overrides,
  });
}

/** A server whose first `bad` answers are `fault`, then `{ok: 1}`. */
async function failingFirst(bad: number, fault: (res: import('node:http').ServerResponse) => void) {
  let calls = 0;
  return startServer((_req, res) => (++calls <= bad ? fault(res) : json(res, 200, { ok: 1 })));
}

const truncated = (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"updates":[{"site_id":1');
};
const garbage = (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('\u0000\u00ff#%garbage');
};
const htmlPage = (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<html><body>Bad gateway, try later</body></html>');
};
/** Declares 200 bytes, sends 30, then drops the connection. */
const cutOff = (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
  res.write('{"updates":[{"site_id":1,"slug"');
  setTimeout(() => res.socket?.destroy(), 5);
};

describe('retry policy (issue 21, finding 1)', () => {
  it('defaults to 4 attempts in all', () => {
    const { settings } = loadSettings({
      env: {},
      cwd: '/w',
      fs: memoryFs({ '/w/.keep': '' }),
      homeDir: '/h',
    });
    expect(settings.maxRetries).toBe(4);
  });

  it('gets through three failed attempts with the default settings', async () => {
    server = await failingFirst(3, (res) => json(res, 503, { code: 'busy' }));
    const { settings } = loadSettings({
      env: {
        SVC_URL: server.url,
        SVC_ALLOW_HTTP: 'true',
        SVC_RETRY_BASE_DELAY: '1',
        SVC_RETRY_MAX_DELAY: '2',
      },
      cwd: '/w',
      fs: memoryFs({ '/w/.keep': '' }),
      homeDir: '/h',
    });
    const connection = openConnection(settings);
    const res = await connection.transport.send({ method: 'GET', path: '/x', retry: true });
    expect(res).toMatchObject({ status: 200, body: { ok: 1 } });
    expect(server.requests).toHaveLength(4);
    await connection.transport.close();
  });

  it.each([
    ['truncated JSON', truncated],
    ['a body that is not JSON', garbage],
    ['an HTML page', htmlPage],
    ['a body cut off before its declared length', cutOff],
  ])('retries a 2xx read whose body is %s, and returns the whole answer', async (_what, fault) => {
    server = await failingFirst(2, fault);
    const t = transportFor(server.url);
    const res = await t.send({ method: 'GET', path: '/x', retry: true });
    expect(res).toMatchObject({ status: 200, body: { ok: 1 } });
    expect(t.stats()).toMatchObject({ requests: 3, retries: 2 });
    await t.close();
  });

  it('never repeats a non-idempotent write whose 2xx body is unreadable', async () => {
    server = await failingFirst(1, truncated);
    const t = transportFor(server.url);
    const error = await failure(t.send({ method: 'POST', path: '/run', body: {}, retry: false }));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(server.requests).toHaveLength(1);
    await t.close();
  });

  it('reports a body that stays unreadable after every attempt', async () => {
    server = await startServer((_req, res) => truncated(res));
    const t = transportFor(server.url);
    const error = await failure(t.send({ method: 'GET', path: '/x', retry: true }));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toContain('not valid JSON');
    expect(server.requests).toHaveLength(4);
    await t.close();
  });

  it('starts no retry past the total budget of a request', async () => {
    server = await startServer((_req, res) => json(res, 503, { code: 'busy' }));
    const t = transportFor(server.url, { retryBaseDelay: 100, retryMaxDelay: 100, retryBudget: 40 });
    expect((await t.send({ method: 'GET', path: '/x', retry: true })).status).toBe(503);
    expect(server.requests).toHaveLength(1);
    await t.close();
  });

  it('honours Retry-After up to its cap, and reports a longer one at once', async () => {
    server = await failingFirst(1, (res) => json(res, 429, {}, { 'retry-after': '0' }));
    const t = transportFor(server.url);
    expect((await t.send({ method: 'GET', path: '/a', retry: true })).status).toBe(200);
    await Promise.all([server.close(), t.close()]);
    // 45 s is over the 30 s cap: the 429 is reported instead of holding the run.
    server = await startServer((_req, res) => json(res, 429, {}, { 'retry-after': '45' }));
    const t2 = transportFor(server.url);
    expect((await t2.send({ method: 'GET', path: '/a', retry: true })).status).toBe(429);
    expect(server.requests).toHaveLength(1);
    await t2.close();
  });

  it('decides each wait from attempts, budget and Retry-After', () => {
    const policy = {
      maxAttempts: 4,
      retryBaseDelay: 100,
      retryMaxDelay: 400,
      retryBudget: 1000,
      maxRetryAfter: 500,
    };
    const half = () => 0.5;
    expect(nextDelay(1, 0, undefined, policy, half)).toBe(75);
    expect(nextDelay(3, 0, undefined, policy, half)).toBe(300);
    expect(nextDelay(4, 0, undefined, policy, half)).toBeUndefined();
    expect(nextDelay(2, 900, undefined, policy, half)).toBeUndefined();
    expect(nextDelay(1, 0, '0', policy, half)).toBe(0);
    expect(nextDelay(1, 0, '1', policy, half)).toBeUndefined();
  });
});
