import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { cliInVirtualTime, VirtualTimers } from '../helpers/virtual-timers.js';
import { startWorld } from './world.js';

const openWorld = closedAfterEach(startWorld);

const SITES = 200;

describe('apply progress on a real paced run (virtual time)', () => {
  it('prints a line about every 10 s without a terminal, and after 10 % of the calls an ETA within ±25 %', async () => {
    const sites = Array.from(
      { length: SITES },
      (_, i) =>
        `  - {id: ${i + 1}, url: https://s${i + 1}.fleet.test/, plugins: {akismet/akismet.php: "5.3.0 -> 5.3.1"}}`,
    );
    const w = await openWorld({
      fleet: `sites:\n${sites.join('\n')}\n`,
      config: 'version: 1\nignores:\n  rules:\n    - {sites: [all], plugins: [akismet/akismet.php]}\n',
    });
    const run = await cliInVirtualTime(['apply', '--auto-approve'], {
      env: { ...w.env, SVC_RATE_LIMIT: '60' },
      fs: w.fs,
      cwd: w.cwd,
      timers: new VirtualTimers(),
    });
    const { lines } = run;
    expect(run.code, run.stderr).toBe(0);

    const calls = lines.find((l) => /^apply: \d+ action\(s\) in \d+ call\(s\)$/.test(l.text));
    expect(calls?.text).toBe(`apply: ${SITES} action(s) in ${SITES} call(s)`);
    const progress = lines.filter((l) => /^apply: \d+\/\d+ actions/.test(l.text));
    const finished = progress.find((l) => l.text.startsWith(`apply: ${SITES}/${SITES} `))!;
    expect(finished).toBeDefined();
    // Bursts of up to 60 calls a minute apart (the limiter also counts the plan's read).
    expect(finished.at - calls!.at).toBeGreaterThanOrEqual(3 * 60_000);

    // A line at least every 10 s (and a few ms of the calls' own time) while the calls run.
    const during = progress.filter((l) => l.at <= finished.at);
    for (let i = 1; i < during.length; i++)
      expect(during[i]!.at - during[i - 1]!.at).toBeLessThanOrEqual(10_500);
    expect(during.length).toBeGreaterThanOrEqual((finished.at - calls!.at) / 10_000 - 1);

    // Each ETA shown after 10 % of the calls: the finish it predicts within ±25 % of the run.
    const total = finished.at - calls!.at;
    const etas = during
      .map((l) => ({ at: l.at, done: Number(/(\d+)\//.exec(l.text)![1]), eta: parseEta(l.text) }))
      .filter((l) => l.done >= SITES * 0.1 && l.eta !== undefined);
    expect(etas.length).toBeGreaterThan(5);
    for (const { at, eta } of etas)
      expect(Math.abs(at + eta! - finished.at)).toBeLessThanOrEqual(0.25 * total);
  });
});

function parseEta(text: string): number | undefined {
  const match = /ETA (?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!match) return undefined;
  const [, h = '0', m = '0', s = '0'] = match;
  return (Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000;
}
