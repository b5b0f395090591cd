import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../src/apply/index.js';
import { createProgress } from '../../src/cli/progress.js';

function callDone(settled: number, total: number): ApplyEvent {
  return {
    type: 'call-done',
    call: { type: 'run-updates', siteIds: [1], items: [], actions: [] },
    outcomes: [],
    progress: { settled, failed: 0, total },
  };
}

/** When each call ends: `concurrency` workers, a sliding-window limiter, a latency per call. */
function simulate(calls: number, perMinute: number, concurrency: number, latency: (i: number) => number) {
  const starts: number[] = [];
  const ends: number[] = [];
  const free = Array(concurrency).fill(0) as number[];
  for (let i = 0; i < calls; i++) {
    const worker = free.indexOf(Math.min(...free));
    let start = free[worker]!;
    if (perMinute > 0 && i >= perMinute) start = Math.max(start, starts[i - perMinute]! + 60_000);
    starts.push(start);
    ends.push(start + latency(i));
    free[worker] = start + latency(i);
  }
  return ends.sort((a, b) => a - b);
}

/**
 * The ETA printed at each call's end after the first 10 % of the calls, with the time the calls
 * really took. The promise is about the finish it predicts (elapsed + ETA) against the real one:
 * behind a sliding-window limiter calls finish in bursts a minute apart, so the time left is a
 * staircase no pace can follow step by step, while the predicted finish can stay close.
 */
function etaErrors(ends: number[], rateLimit: number) {
  const lines: string[] = [];
  let now = 0;
  const progress = createProgress(
    { write: (s: string) => lines.push(s) },
    { clock: () => now, plainIntervalMs: 0, rateLimit, every: () => () => {} },
  );
  progress.onEvent({ type: 'start', actions: ends.length, calls: ends.length });
  const errors: Array<{ done: number; eta: number; elapsed: number; total: number }> = [];
  ends.forEach((end, i) => {
    now = end;
    lines.length = 0;
    progress.onEvent(callDone(i + 1, ends.length));
    const match = /ETA (?:(\d+)h)?(?:(\d+)m)?(\d+)?s?$/.exec(lines[0]!.trim());
    if (!match || i + 1 < ends.length * 0.1 || i + 1 === ends.length) return;
    const [, h = '0', m = '0', s = '0'] = match;
    const eta = (Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000;
    errors.push({ done: i + 1, eta, elapsed: end, total: ends[ends.length - 1]! });
  });
  return errors;
}

describe('apply ETA', () => {
  it('after 10 % of the calls predicts the finish within ±25 %, behind a rate limiter with bursts', () => {
    // 600 calls at 60 a minute, 4 at a time, 100 ms each: the first 60 go at once.
    const ends = simulate(600, 60, 4, () => 100);
    const errors = etaErrors(ends, 60);
    expect(errors.length).toBeGreaterThan(400);
    for (const { eta, elapsed, total } of errors)
      expect(Math.abs(elapsed + eta - total)).toBeLessThanOrEqual(0.25 * total);
  });

  it('after 10 % of the calls predicts the finish within ±25 % without a rate limit, uneven calls', () => {
    const ends = simulate(400, 0, 4, (i) => 200 + ((i * 7919) % 300));
    for (const { eta, elapsed, total } of etaErrors(ends, 0))
      expect(Math.abs(elapsed + eta - total)).toBeLessThanOrEqual(0.25 * total);
  });
});

describe('apply progress without a terminal', () => {
  it('writes a line with counts every interval even when no call ends, and stops when finished', () => {
    const lines: string[] = [];
    let now = 0;
    let tick: (() => void) | undefined;
    let stopped = false;
    const progress = createProgress(
      { write: (s: string) => lines.push(s.trim()) },
      {
        clock: () => now,
        plainIntervalMs: 10_000,
        every: (_ms, fn) => {
          tick = fn;
          return () => {
            stopped = true;
          };
        },
      },
    );
    progress.onEvent({ type: 'start', actions: 40, calls: 4 });
    now = 1_000;
    progress.onEvent(callDone(10, 40));
    // A long call: no event for 25 s, yet two lines come.
    now = 11_000;
    tick!();
    now = 21_000;
    tick!();
    progress.onEvent({ type: 'verify', sites: 10 });
    now = 31_500;
    progress.onReread('after', { done: 3, total: 7 });
    now = 41_500;
    tick!();
    progress.finish();
    expect(lines).toEqual([
      'apply: 40 action(s) in 4 call(s)',
      'apply: 10/40 actions (25%), 0 failed',
      'apply: 10/40 actions (25%), 0 failed',
      'apply: 10/40 actions (25%), 0 failed',
      'apply: re-reading 10 site(s) to confirm the changes',
      'apply: re-reading the touched sites to confirm the changes: 3/7 pages',
      'apply: re-reading the touched sites to confirm the changes: 3/7 pages',
    ]);
    expect(stopped).toBe(true);
  });
});
