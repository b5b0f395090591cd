import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortFanout } from '../../src/dashboard/transport/abort.js';
import { createTransport } from '../../src/dashboard/transport/http.js';
import { Semaphore } from '../../src/dashboard/transport/limits.js';
import { json, startServer, type TestServer } from './helpers/server.js';

/** Node's default limit is 10 listeners per signal; well above it. */
const WAITERS = 25;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Collects process warnings until stopped; warnings are emitted on a later tick, so settle first. */
function captureWarnings() {
  const seen: string[] = [];
  const listener = (warning: Error) => seen.push(`${warning.name}: ${warning.message}`);
  process.on('warning', listener);
  return async () => {
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', listener);
    return seen;
  };
}

const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('abort listeners on a shared signal', () => {
  it(`lets ${WAITERS} queued acquirers share one listener, and an abort rejects every one`, async () => {
    const stop = captureWarnings();
    const semaphore = new Semaphore(1);
    const holder = await semaphore.acquire();
    const controller = new AbortController();
    const waiters = Array.from({ length: WAITERS }, () =>
      semaphore.acquire(controller.signal).then(
        () => 'granted',
        (error: { code?: string }) => error.code,
      ),
    );
    expect(semaphore.queued).toBe(WAITERS);
    expect(abortListeners(controller.signal)).toBe(1);
    controller.abort();
    expect(await Promise.all(waiters)).toEqual(Array(WAITERS).fill('INTERRUPTED'));
    expect(semaphore.queued).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
    // The slot still works after the mass abort: the holder hands it to a new caller.
    holder();
    const next = await semaphore.acquire();
    next();
    expect((await stop()).filter((w) => w.includes('MaxListenersExceeded'))).toEqual([]);
  });

  it('removes the shared listener once the last waiter is granted its slot', async () => {
    const semaphore = new Semaphore(1);
    const holder = await semaphore.acquire();
    const controller = new AbortController();
    const first = semaphore.acquire(controller.signal);
    const second = semaphore.acquire(controller.signal);
    expect(abortListeners(controller.signal)).toBe(1);
    holder();
    (await first)();
    (await second)();
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('unsubscribes idempotently and lets one callback subscribe twice', () => {
    const fanout = new AbortFanout();
    const controller = new AbortController();
    const calls: string[] = [];
    const callback = () => calls.push('fired');
    const off1 = fanout.subscribe(controller.signal, callback);
    fanout.subscribe(controller.signal, callback);
    off1();
    off1();
    expect(fanout.watchedCount()).toBe(1);
    controller.abort();
    expect(calls).toEqual(['fired']);
    expect(fanout.watchedCount()).toBe(0);
  });

  it(`keeps one listener for ${WAITERS} concurrent requests of a transport, and aborts them all`, async () => {
    const held: Array<() => void> = [];
    server = await startServer((_req, res) => {
      held.push(() => json(res, 200, { ok: true }));
    });
    // More requests in flight (16) than Node's limit: undici's own listeners land on child signals.
    const transport = createTransport({
      baseUrl: server.url,
      timeoutMs: 5000,
      maxResponseSize: 10_000,
      maxSessionData: 1_000_000,
      rateLimit: 0,
      maxAttempts: 2,
      retryBaseDelay: 1,
      retryMaxDelay: 5,
      concurrency: 16,
      skipSslVerify: false,
    });
    const stop = captureWarnings();
    const controller = new AbortController();
    const sends = Array.from({ length: WAITERS }, (_, i) =>
      transport.send({ method: 'GET', path: `/r${i}`, retry: true, signal: controller.signal }).then(
        (res) => res.status,
        (error: { code?: string }) => error.code,
      ),
    );
    while (held.length < 16) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(abortListeners(controller.signal)).toBe(1);
    controller.abort();
    expect(await Promise.all(sends)).toEqual(Array(WAITERS).fill('INTERRUPTED'));
    expect(abortListeners(controller.signal)).toBe(0);
    expect((await stop()).filter((w) => w.includes('MaxListenersExceeded'))).toEqual([]);
    await transport.close();
  });
});
