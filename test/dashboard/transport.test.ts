import { afterEach, describe, expect, it } from 'vitest';
import { createTransport, type TransportConfig } from '../../src/dashboard/transport/http.js';
import { svcError as failure } from '../helpers/errors.js';
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
    maxAttempts: 3,
    retryBaseDelay: 1,
    retryMaxDelay: 5,
    concurrency: 2,
    skipSslVerify: false,
    ...overrides,
  });
}

describe('transport', () => {
  it('retries reads on 5xx and returns the first good answer', async () => {
    let calls = 0;
    server = await startServer((_req, res) =>
      ++calls < 3 ? json(res, 503, { code: 'busy' }) : json(res, 200, { ok: 1 }),
    );
    const t = transportFor(server.url);
    const res = await t.send({ method: 'GET', path: '/x', retry: true });
    expect(res).toMatchObject({ status: 200, body: { ok: 1 } });
    expect(t.stats()).toMatchObject({ requests: 3, retries: 2 });
    await t.close();
  });

  it('never retries a non-idempotent write', async () => {
    server = await startServer((_req, res) => json(res, 500, { code: 'boom' }));
    const t = transportFor(server.url);
    const res = await t.send({ method: 'POST', path: '/run', body: { input: {} }, retry: false });
    expect(res.status).toBe(500);
    expect(server.requests).toHaveLength(1);
    await t.close();
  });

  it('honours Retry-After on 429 and gives up when it asks for too long', async () => {
    let calls = 0;
    server = await startServer((_req, res) =>
      ++calls === 1 ? json(res, 429, {}, { 'retry-after': '0' }) : json(res, 200, { ok: true }),
    );
    const t = transportFor(server.url);
    expect((await t.send({ method: 'GET', path: '/a', retry: true })).status).toBe(200);
    await server.close();
    server = await startServer((_req, res) => json(res, 429, {}, { 'retry-after': '3600' }));
    const t2 = transportFor(server.url);
    expect((await t2.send({ method: 'GET', path: '/a', retry: true })).status).toBe(429);
    expect(server.requests).toHaveLength(1);
    await Promise.all([t.close(), t2.close()]);
  });

  it('retries a reset connection, then reports it by name', async () => {
    server = await startServer((req) => {
      req.socket.destroy();
    });
    const t = transportFor(server.url);
    const error = await failure(t.send({ method: 'GET', path: '/reset', retry: true }));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toMatch(/GET \/reset: connection failed \((ECONNRESET|UND_ERR_SOCKET)\)/);
    expect(error.hint).toBeTruthy();
    expect(server.requests).toHaveLength(3);
    await t.close();
  });

  it('names ECONNREFUSED with a hint', async () => {
    server = await startServer(() => {});
    const url = server.url;
    await server.close();
    server = undefined;
    const t = transportFor(url, { maxAttempts: 1 });
    const error = await failure(t.send({ method: 'GET', path: '/', retry: true }));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.hint).toContain('SVC_URL');
    await t.close();
  });

  it('times out a silent server and a body that drips too slowly', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/silent') return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const t = transportFor(server.url, { timeoutMs: 300, maxAttempts: 1 });
    expect((await failure(t.send({ method: 'GET', path: '/silent', retry: true }))).code).toBe('TIMEOUT');
    expect((await failure(t.send({ method: 'GET', path: '/drip', retry: true }))).code).toBe('TIMEOUT');
    await t.close();
  });

  it('refuses oversized bodies by Content-Length and while streaming', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/declared') return json(res, 200, { data: 'x'.repeat(20_000) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('["');
      for (let i = 0; i < 30; i++) res.write('y'.repeat(1000));
      res.end('"]');
    });
    const t = transportFor(server.url);
    const declared = await failure(t.send({ method: 'GET', path: '/declared', retry: true }));
    expect(declared.code).toBe('RESPONSE_TOO_LARGE');
    expect(declared.message).toContain('exceeds the maximum of 10000 bytes');
    const streamed = await failure(t.send({ method: 'GET', path: '/streamed', retry: true }));
    expect(streamed.code).toBe('RESPONSE_TOO_LARGE');
    expect(server.requests).toHaveLength(2);
    await t.close();
  });

  it('stops at the cumulative data budget', async () => {
    server = await startServer((_req, res) => json(res, 200, { data: 'z'.repeat(400) }));
    const t = transportFor(server.url, { maxSessionData: 1000 });
    await t.send({ method: 'GET', path: '/', retry: true });
    await t.send({ method: 'GET', path: '/', retry: true });
    const error = await failure(t.send({ method: 'GET', path: '/', retry: true }));
    expect(error.code).toBe('RESOURCE_EXHAUSTED');
    await t.close();
  });

  it('reports truncated JSON as a bad response, never as data', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"updates":[{"site_id":1');
    });
    const t = transportFor(server.url);
    const error = await failure(t.send({ method: 'GET', path: '/t', retry: true }));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toContain('not valid JSON');
    await t.close();
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    server = await startServer((_req, res) => {
      peak = Math.max(peak, ++inFlight);
      setTimeout(() => {
        inFlight--;
        json(res, 200, {});
      }, 20);
    });
    const t = transportFor(server.url, { concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, () => t.send({ method: 'GET', path: '/', retry: true })));
    expect(peak).toBe(2);
    expect(t.stats().requests).toBe(8);
    await t.close();
  });

  it('drops __proto__ keys from responses', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"__proto__":{"polluted":true},"a":{"__proto__":{"polluted":true}}}');
    });
    const t = transportFor(server.url);
    const res = await t.send({ method: 'GET', path: '/', retry: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(res.body as object)).toEqual(['a']);
    expect(Object.getPrototypeOf((res.body as Record<string, object>).a)).toBe(Object.prototype);
    await t.close();
  });

  it('aborts with INTERRUPTED when the caller gives up', async () => {
    server = await startServer(() => {});
    const t = transportFor(server.url);
    const controller = new AbortController();
    const pending = t.send({ method: 'GET', path: '/', retry: true, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect((await failure(pending)).code).toBe('INTERRUPTED');
    await t.close();
  });
});
