import { describe, expect, it } from 'vitest';
import { generateFleet } from '../../src/sandbox/index.js';
import { startWorld } from '../apply/world.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { cliInVirtualTime, VirtualTimers } from '../helpers/virtual-timers.js';

const openWorld = closedAfterEach(startWorld);

/**
 * `plan` behind a fixed rate limit (SVC_RATE_LIMIT=60), in virtual time: the limiter lets a
 * minute's requests through at once, then waits, so answers come in bursts a minute apart.
 */
describe('plan read progress on a real rate-limited read (virtual time)', () => {
  it('prints a line about every 10 s without a terminal, at a rate the limit allows', async () => {
    const w = await openWorld({
      fleet: generateFleet({ sites: 6000, pendingPerSite: 4, seed: 4 }),
      config: 'version: 1\n',
    });
    const run = await cliInVirtualTime(['plan'], {
      env: { ...w.env, SVC_RATE_LIMIT: '60' },
      fs: w.fs,
      cwd: w.cwd,
      timers: new VirtualTimers(),
    });
    const { lines } = run;
    expect(run.code, run.stderr).toBe(0);
    const read = lines.find((l) => l.text.startsWith('Read 6000 sites'))!;
    expect(read.at).toBeGreaterThanOrEqual(60_000); // more than one minute's allowance
    const progress = lines.filter((l) => l.text.startsWith('reading: '));
    expect(progress.length).toBeGreaterThanOrEqual(Math.floor(read.at / 10_000) - 1);
    const gaps = [
      progress[0]!.at,
      ...progress.slice(1).map((l, i) => l.at - progress[i]!.at),
      read.at - progress.at(-1)!.at,
    ];
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(11_000);
    for (const { text } of progress) {
      const rate = Number(/, ([\d.]+) requests\/s/.exec(text)?.[1]);
      expect(rate, text).toBeLessThanOrEqual(1);
    }
  });

  it.each([
    ['plan', '; nothing was planned or changed'],
    ['import', ''],
  ])('Ctrl-C after many answers: %s says how far the read got; exit 130', async (command, after) => {
    const w = await openWorld({
      fleet: generateFleet({ sites: 6000, pendingPerSite: 4, seed: 4 }),
      config: 'version: 1\n',
    });
    const timers = new VirtualTimers();
    const controller = new AbortController();
    // Ctrl-C 10 s in: the first minute's requests were answered, the limiter holds the rest.
    timers.every(10_000, () => controller.abort(new Error('SIGINT')));
    const run = await cliInVirtualTime([command], {
      env: { ...w.env, SVC_RATE_LIMIT: '60' },
      fs: w.fs,
      cwd: w.cwd,
      timers,
      signal: controller.signal,
    });
    expect(run.code, run.stderr).toBe(130);
    const stopped = new RegExp(
      `svc-gitops: interrupted: the read was stopped after (\\d+) of (\\d+) requests${after}\\n`,
    ).exec(run.stderr);
    expect(stopped, run.stderr).not.toBeNull();
    expect(Number(stopped![1])).toBeGreaterThan(0);
    expect(Number(stopped![1])).toBeLessThan(Number(stopped![2]));
    expect(run.stderr).not.toContain('interrupted: interrupted');
    expect(run.stdout).toBe('');
  });
});
