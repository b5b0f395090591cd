import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attemptDeadline, PRECISE_BELOW_MS } from '../../src/dashboard/transport/deadline.js';

/**
 * The per-attempt deadline, in virtual time: it aborts exactly at the limit (undici's own timers
 * fired 1-1.5 s limits ~0.6 s late), forwards the caller's abort, and is not set from 10 s on.
 */
describe('attemptDeadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([250, 1000, 1200, 1500, 9999])('a %i ms limit aborts at that moment, not later', (ms) => {
    const deadline = attemptDeadline(ms, undefined);
    vi.advanceTimersByTime(ms - 1);
    expect(deadline.signal?.aborted).toBe(false);
    expect(deadline.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal?.aborted).toBe(true);
    expect(deadline.expired).toBe(true);
    deadline.clear();
  });

  it("forwards the caller's abort, which is no timeout; clear stops the timer", () => {
    const caller = new AbortController();
    const deadline = attemptDeadline(500, caller.signal);
    caller.abort();
    expect(deadline.signal?.aborted).toBe(true);
    expect(deadline.expired).toBe(false);
    const cleared = attemptDeadline(500, undefined);
    cleared.clear();
    vi.advanceTimersByTime(1000);
    expect(cleared.signal?.aborted).toBe(false);
  });

  it("from 10 s on, the caller's own signal (undici's timers are then within a tenth)", () => {
    const caller = new AbortController();
    expect(attemptDeadline(PRECISE_BELOW_MS, caller.signal).signal).toBe(caller.signal);
    expect(attemptDeadline(30_000, undefined).signal).toBeUndefined();
  });
});
