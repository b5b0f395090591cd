import { afterEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../src/dashboard/transport/http.js';
import { Semaphore } from '../../src/dashboard/transport/limits.js';
import { PaceController } from '../../src/dashboard/transport/pacing.js';
import { svcError as failure } from '../helpers/errors.js';
import { json, startServer, type TestServer } from './helpers/server.js';

const ok = (ms = 100) => ({ status: 200, ms });

describe('adaptive pacing (PaceController)', () => {
  it('starts at the configured concurrency and halves on 429 or 503, once per burst', () => {
    const pace = new PaceController(8, 30_000);
    expect(pace.window).toBe(8);
    pace.observe({ status: 429, ms: 5 }, 0);
    expect(pace.window).toBe(4);
    // The rest of the same burst (replies to requests already in flight) counts once.
    for (let i = 0; i < 3; i++) pace.observe({ status: 429, ms: 5 }, 0);
    expect(pace.window).toBe(4);
    pace.observe({ status: 503, ms: 5 }, 0);
    expect(pace.window).toBe(2);
    for (let i = 0; i < 5; i++) pace.observe({ status: undefined, ms: 5 }, 0);
    expect(pace.window).toBe(1);
  });

  it('holds new requests for a Retry-After, capped at the longest the retry policy honours', () => {
    const pace = new PaceController(4, 30_000);
    pace.observe({ status: 429, ms: 5, retryAfterMs: 2000 }, 1000);
    expect(pace.waitMs(1000)).toBe(2000);
    expect(pace.waitMs(2500)).toBe(500);
    expect(pace.waitMs(3000)).toBe(0);
    pace.observe({ status: 503, ms: 5, retryAfterMs: 3_600_000 }, 10_000);
    expect(pace.waitMs(10_000)).toBe(30_000);
  });

  it('recovers one step per window of healthy replies, up to the maximum', () => {
    const pace = new PaceController(8, 30_000);
    pace.observe({ status: 429, ms: 5 }, 0);
    expect(pace.window).toBe(4);
    for (let i = 0; i < 4; i++) pace.observe(ok(), 0);
    expect(pace.window).toBe(5);
    for (let i = 0; i < 100; i++) pace.observe(ok(), 0);
    expect(pace.window).toBe(8);
  });

  it('slows down when latency rises well above the best seen, not on a slow reply alone', () => {
    const pace = new PaceController(8, 30_000);
    for (let i = 0; i < 20; i++) pace.observe(ok(100), 0);
    pace.observe(ok(900), 0);
    expect(pace.window).toBe(8);
    for (let i = 0; i < 10; i++) pace.observe(ok(2000), 0);
    expect(pace.window).toBeLessThan(8);
  });

  it('judges latency per route: a route slow by nature never shrinks the window', () => {
    const pace = new PaceController(8, 30_000);
    for (let i = 0; i < 20; i++) pace.observe({ ...ok(100), route: '/sites' }, 0);
    // Update pages take 30 × a site page, steadily: no queueing, so no backing off.
    for (let i = 0; i < 200; i++) {
      pace.observe({ ...ok(3000), route: '/updates' }, 0);
      pace.observe({ ...ok(100), route: '/sites' }, 0);
    }
    expect(pace.window).toBe(8);
  });

  it('backs off on a route whose own latency rises, but never below half on latency alone', () => {
    const pace = new PaceController(8, 30_000);
    expect(pace.latencyFloor).toBe(4);
    for (let i = 0; i < 20; i++) pace.observe({ ...ok(100), route: '/updates' }, 0);
    for (let i = 0; i < 200; i++) pace.observe({ ...ok(2000), route: '/updates' }, 0);
    expect(pace.window).toBe(4);
    // Refusals still take it further down.
    pace.observe({ status: 503, ms: 5, route: '/updates' }, 0);
    expect(pace.window).toBe(2);
  });

  it('neither grows nor shrinks on other server errors', () => {
    const pace = new PaceController(8, 30_000);
    pace.observe({ status: 429, ms: 5 }, 0);
    for (let i = 0; i < 50; i++) pace.observe({ status: 500, ms: 5 }, 0);
    expect(pace.window).toBe(4);
  });
});

describe('Semaphore with a changing limit', () => {
  it('lowers the limit as slots come back and wakes waiters when it rises', async () => {
    const slots = new Semaphore(2);
    const a = await slots.acquire();
    const b = await slots.acquire();
    let third = false;
    const waiting = slots.acquire().then((release) => {
      third = true;
      return release;
    });
    slots.setLimit(1);
    a();
    await Promise.resolve();
    expect(third).toBe(false); // one still in flight, and the limit is one
    slots.setLimit(3);
    const c = await waiting;
    expect(third).toBe(true);
    b();
    c();
  });
});

describe('the transport paces by the replies', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  it('sends fewer requests at once after a burst of 429s, and more again once healthy', async () => {
    let inFlight = 0;
    let refusals = 4;
    const peaks: number[] = [];
    server = await startServer((_req, res) => {
      if (refusals-- > 0) return json(res, 429, { code: 'slow_down' }, { 'retry-after': '0' });
      inFlight++;
      peaks.push(inFlight);
      setTimeout(() => {
        inFlight--;
        json(res, 200, { ok: true });
      }, 15);
    });
    const t = createTransport({
      baseUrl: server.url,
      timeoutMs: 2000,
      maxResponseSize: 10_000,
      maxSessionData: 0,
      rateLimit: 0,
      maxAttempts: 3,
      retryBaseDelay: 1,
      retryMaxDelay: 5,
      concurrency: 8,
      skipSslVerify: false,
    });
    await Promise.all(Array.from({ length: 4 }, () => t.send({ method: 'GET', path: '/a', retry: true })));
    // Halved by the burst; the four retries that then succeeded may have grown it by one.
    const slowed = t.stats().window;
    expect(slowed).toBeLessThanOrEqual(5);
    await Promise.all(Array.from({ length: 60 }, () => t.send({ method: 'GET', path: '/b', retry: true })));
    expect(Math.max(...peaks.slice(0, 8))).toBeLessThanOrEqual(slowed + 1);
    expect(t.stats().window).toBe(8);
    await t.close();
  });

  it('keeps every slot for a route that is slow by nature beside a fast one', async () => {
    // Times are the server's own waits, far apart; the verdict is the window, not a clock.
    server = await startServer((req, res) => {
      setTimeout(() => json(res, 200, { ok: true }), req.url?.startsWith('/slow') ? 400 : 1);
    });
    const t = createTransport({
      baseUrl: server.url,
      timeoutMs: 5000,
      maxResponseSize: 10_000,
      maxSessionData: 0,
      rateLimit: 0,
      maxAttempts: 1,
      retryBaseDelay: 1,
      retryMaxDelay: 5,
      concurrency: 8,
      skipSslVerify: false,
    });
    for (let i = 0; i < 10; i++) await t.send({ method: 'GET', path: '/fast', retry: true });
    const windows: number[] = [];
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: 8 }, () => t.send({ method: 'GET', path: '/slow', retry: true })),
      );
      windows.push(t.stats().window);
    }
    expect(windows).toEqual([8, 8, 8]);
    await t.close();
  });

  it('refuses a request line over 8 KiB before it leaves', async () => {
    server = await startServer((_req, res) => json(res, 200, {}));
    const t = createTransport({
      baseUrl: server.url,
      timeoutMs: 2000,
      maxResponseSize: 10_000,
      maxSessionData: 0,
      rateLimit: 0,
      maxAttempts: 1,
      retryBaseDelay: 1,
      retryMaxDelay: 5,
      concurrency: 2,
      skipSslVerify: false,
    });
    const error = await failure(
      t.send({ method: 'GET', path: '/a', query: `q=${'x'.repeat(8200)}`, retry: true }),
    );
    expect(error).toMatchObject({ code: 'INTERNAL' });
    expect(error.message).toMatch(/request line would be \d+ bytes with its CRLF, over the 8192/);
    expect(server.requests).toHaveLength(0);
    await t.close();
  });
});
