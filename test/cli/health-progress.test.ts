import { describe, expect, it } from 'vitest';
import { createCountProgressPrinter } from '../../src/cli/count-progress.js';
import { createProgress } from '../../src/cli/progress.js';

/** The progress a long health check shows: apply's line per wave, and plan's gate check. */
describe('health check progress', () => {
  it('apply shows the sites checked of a wave with an ETA, and a line per checked wave', () => {
    const lines: string[] = [];
    let now = 0;
    const progress = createProgress(
      { write: (s: string) => lines.push(s) },
      { clock: () => now, plainIntervalMs: 1_000, every: () => () => {} },
    );
    const event = (done: number) =>
      progress.onEvent({ type: 'health-progress', wave: 'everyone', stage: 'after', done, total: 5000 });
    event(1);
    now = 2_000;
    event(1001);
    now = 2_500;
    event(1500); // within the interval: not shown
    now = 4_000;
    event(2001);
    expect(lines).toEqual([
      'apply: checking the health after wave everyone: 1/5000 sites (0%)\n',
      'apply: checking the health after wave everyone: 1001/5000 sites (20%), ETA 8s\n',
      'apply: checking the health after wave everyone: 2001/5000 sites (40%), ETA 6s\n',
    ]);
    lines.length = 0;
    progress.onEvent({
      type: 'health',
      report: {
        wave: 'everyone',
        checked: 5000,
        unhealthy: [{ site_id: 7, site_url: 'https://s7/', problem: 'offline', after: [] }],
        max_unhealthy: 0,
        stopped: true,
      },
    });
    expect(lines).toEqual([
      'apply: wave everyone: 5000 updated site(s) checked, 1 unhealthy, more than 0: later waves do not start\n',
    ]);
  });

  it("plan's gate check prints a line per interval in CI logs, none for a short check", () => {
    const lines: string[] = [];
    let now = 0;
    const printer = createCountProgressPrinter(
      { write: (s: string) => lines.push(s) },
      () => now,
      'health: checking wave canary at plan time, sites',
    );
    now = 5_000;
    printer.onProgress(100, 400);
    expect(lines).toEqual([]);
    now = 10_000;
    printer.onProgress(200, 400);
    printer.finish();
    expect(lines).toEqual(['health: checking wave canary at plan time, sites: 200/400 (50%), ETA 10s\n']);
  });
});
