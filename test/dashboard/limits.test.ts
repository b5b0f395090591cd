import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter, Semaphore } from '../../src/dashboard/transport/limits.js';
import { parseRetryAfter, retryDelay } from '../../src/dashboard/transport/retry.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('limits', () => {
  it('makes the call over the per-minute limit wait for a free slot', async () => {
    vi.useFakeTimers();
    const limiter = new RateLimiter(2);
    await limiter.take();
    await limiter.take();
    let third = false;
    const waiting = limiter.take().then(() => {
      third = true;
    });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(third).toBe(false);
    await vi.advanceTimersByTimeAsync(1_001);
    await waiting;
    expect(third).toBe(true);
  });

  it('never limits with rateLimit 0', async () => {
    vi.useFakeTimers();
    const started = Date.now();
    /** Starts 1,000 takes at once; how many resolved with no (fake) time passing, and timers left. */
    async function burst(limiter: RateLimiter) {
      let resolved = 0;
      for (let i = 0; i < 1000; i++) void limiter.take().then(() => resolved++);
      await vi.advanceTimersByTimeAsync(0); // settles promises; the fake clock does not move
      return { resolved, timers: vi.getTimerCount() };
    }
    expect(await burst(new RateLimiter(0))).toEqual({ resolved: 1000, timers: 0 });
    expect(Date.now()).toBe(started);
    // The same measure sees a limit: under 999 a minute, the 1,000th call waits on a timer.
    expect(await burst(new RateLimiter(999))).toEqual({ resolved: 999, timers: 1 });
  });

  it('hands a released slot to the next waiter in order', async () => {
    const semaphore = new Semaphore(1);
    const order: number[] = [];
    const first = await semaphore.acquire();
    const waiters = [1, 2].map((n) =>
      semaphore.acquire().then((release) => {
        order.push(n);
        return release;
      }),
    );
    first();
    (await waiters[0])?.();
    (await waiters[1])?.();
    expect(order).toEqual([1, 2]);
  });

  it('backs off exponentially with jitter, capped, and reads Retry-After', () => {
    const config = { retryBaseDelay: 100, retryMaxDelay: 300, maxRetryAfter: 30_000 };
    expect(retryDelay(1, undefined, config, () => 0)).toBe(50);
    expect(retryDelay(1, undefined, config, () => 1)).toBe(100);
    expect(retryDelay(3, undefined, config, () => 1)).toBe(300);
    expect(retryDelay(1, '2', config, () => 0)).toBe(2000);
    expect(retryDelay(1, '120', config, () => 0)).toBeUndefined();
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 5_000)).toBe(5_000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});
