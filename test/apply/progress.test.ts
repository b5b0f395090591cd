import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../src/apply/index.js';
import { createProgress, formatDuration, formatProgress } from '../../src/cli/progress.js';

function callDone(settled: number, total: number, failed = 0): ApplyEvent {
  return {
    type: 'call-done',
    call: { type: 'run-updates', siteIds: [1], items: [], actions: [] },
    outcomes: [],
    progress: { settled, failed, total },
  };
}

describe('apply progress', () => {
  it('formats done/total, failures and an ETA', () => {
    expect(formatProgress({ settled: 25, failed: 1, total: 100 }, 30_000)).toBe(
      'apply: 25/100 actions (25%), 1 failed, ETA 30s',
    );
    expect(formatProgress({ settled: 25, failed: 1, total: 100 }, undefined)).toBe(
      'apply: 25/100 actions (25%), 1 failed',
    );
    expect(formatDuration(3_725_000)).toBe('1h02m');
    expect(formatDuration(65_000)).toBe('1m05s');
  });

  it('estimates the time left from the pace of calls after the first, not of actions since the start', () => {
    // A rate-limited run: the first call goes at once, then one call every 5 s; calls carry
    // different numbers of actions (20 in the first, 1 in each later one).
    const lines: string[] = [];
    let now = 0;
    const progress = createProgress(
      { write: (s: string) => lines.push(s) },
      { clock: () => now, plainIntervalMs: 0 },
    );
    progress.onEvent({ type: 'start', actions: 24, calls: 5 });
    now = 10;
    progress.onEvent(callDone(20, 24));
    now = 5_010;
    progress.onEvent(callDone(21, 24));
    now = 10_010;
    progress.onEvent(callDone(22, 24));
    expect(lines.slice(1)).toEqual([
      'apply: 20/24 actions (83%), 0 failed\n',
      'apply: 21/24 actions (87%), 0 failed, ETA 15s\n',
      'apply: 22/24 actions (91%), 0 failed, ETA 10s\n',
    ]);
  });

  it('--quiet: no progress lines, on a terminal or off it, while the notable events still print', () => {
    for (const isTTY of [true, false]) {
      let out = '';
      let now = 0;
      const ticks: Array<() => void> = [];
      const progress = createProgress(
        { write: (s: string) => (out += s), isTTY },
        {
          clock: () => now,
          plainIntervalMs: 0,
          quiet: true,
          every: (_ms, tick) => {
            ticks.push(tick);
            return () => undefined;
          },
        },
      );
      progress.onEvent({ type: 'start', actions: 6, calls: 3 });
      now = 500;
      progress.onEvent(callDone(2, 6));
      progress.onReread('after', { done: 1, total: 4 });
      for (const tick of ticks) tick();
      progress.onEvent({ type: 'wave-stopped', wave: 'canary', failed: 2, maxFailures: 1 });
      progress.finish();
      expect(out).toBe(
        'apply: 6 action(s) in 3 call(s)\napply: wave canary stopped: 2 failed update(s), more than 1 allowed; later calls are skipped\n',
      );
    }
  });

  it('redraws one line in place on a terminal and clears it when finished', () => {
    let out = '';
    let now = 0;
    const progress = createProgress({ write: (s: string) => (out += s), isTTY: true }, { clock: () => now });
    progress.onEvent({ type: 'start', actions: 6, calls: 3 });
    now = 500;
    progress.onEvent(callDone(2, 6));
    now = 1500;
    progress.onEvent(callDone(4, 6));
    progress.finish();
    expect(out).toContain('\r\u001b[2Kapply: 4/6 actions (66%), 0 failed, ETA 1s');
    expect(out.endsWith('\r\u001b[2K')).toBe(true);
  });

  it('writes sparse plain lines in a log, always the last one and notable events', () => {
    let out = '';
    let now = 0;
    const progress = createProgress(
      { write: (s: string) => (out += s) },
      { clock: () => now, plainIntervalMs: 10_000 },
    );
    progress.onEvent({ type: 'start', actions: 3, calls: 3 });
    now = 1;
    progress.onEvent(callDone(1, 3));
    now = 2;
    progress.onEvent(callDone(2, 3));
    progress.onEvent({ type: 'wave-stopped', wave: 'canary', failed: 2, maxFailures: 1 });
    now = 3;
    progress.onEvent(callDone(3, 3, 2));
    const lines = out.trim().split('\n');
    expect(lines).toEqual([
      'apply: 3 action(s) in 3 call(s)',
      'apply: 1/3 actions (33%), 0 failed',
      'apply: wave canary stopped: 2 failed update(s), more than 1 allowed; later calls are skipped',
      'apply: 3/3 actions (100%), 2 failed',
    ]);
    expect(out).not.toContain('\r');
  });
});
