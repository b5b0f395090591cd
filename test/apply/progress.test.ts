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
  it('formats done/total, failures and an ETA from the pace so far', () => {
    expect(formatProgress({ settled: 25, failed: 1, total: 100 }, 10_000)).toBe(
      'apply: 25/100 actions (25%), 1 failed, ETA 30s',
    );
    expect(formatDuration(3_725_000)).toBe('1h02m');
    expect(formatDuration(65_000)).toBe('1m05s');
  });

  it('redraws one line in place on a terminal and clears it when finished', () => {
    let out = '';
    let now = 0;
    const progress = createProgress({ write: (s: string) => (out += s), isTTY: true }, { clock: () => now });
    progress.onEvent({ type: 'start', actions: 4, calls: 2 });
    now = 1000;
    progress.onEvent(callDone(2, 4));
    progress.finish();
    expect(out).toContain('\r\u001b[2Kapply: 2/4 actions (50%), 0 failed, ETA 1s');
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
      'apply: 1/3 actions (33%), 0 failed, ETA 0s',
      'apply: wave canary stopped: 2 failed update(s), more than 1 allowed; later calls are skipped',
      'apply: 3/3 actions (100%), 2 failed',
    ]);
    expect(out).not.toContain('\r');
  });
});
