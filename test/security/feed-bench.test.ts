import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The security feed benchmark, short and seeded (npm run bench:security runs it at full size):
 * a 1,500-record feed parsed in plain-node children whose peak RSS is reported, and matching on
 * 300 sites side by side with the plan without a feed. The limits here are generous (the
 * machine is shared): the test shows the script runs, finds advisories and reports its figures.
 */
describe('security feed benchmark (small)', () => {
  it('parses in a child, matches on a fleet, and reports both figures', () => {
    const script = fileURLToPath(new URL('../../scripts/bench/security-feed.ts', import.meta.url));
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        script,
        '--records',
        '1500',
        '--sites',
        '300',
        '--rounds',
        '3',
        '--max-rss-mb',
        '400',
        '--max-ratio',
        '20',
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /parse \(child process, the fleet's items as the prefilter\): 1500 records → \d+ advisories kept in \d+ ms .*peak RSS [\d.]+ MiB/,
    );
    expect(run.stdout).toMatch(
      /matching on 300 sites \(\d+ pending updates, \d+ advisories kept;.*\): createPlan with the feed ÷ without, medians of 3, alternating: wall \d+ ms \/ \d+ ms = [\d.]+; CPU \d+ ms \/ \d+ ms = [\d.]+/,
    );
  }, 60_000);
});
