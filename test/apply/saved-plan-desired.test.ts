import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/types.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { run, writesSent } from './cli-helpers.js';
import { CONFIG, startWorld } from './world.js';

/**
 * Issue 21, finding 3: a saved plan is bound to the desired state it was made from. `apply
 * PLANFILE -c OTHER` is refused (nothing sent); the plan's wave thresholds travel inside it, so
 * the plan file alone applies exactly as planned.
 */
const open = closedAfterEach(startWorld);

/** The same config, but jetpack is never updated (as b.yaml in the finding). */
const OTHER = CONFIG.replace('    max: minor\n', '    max: minor\n    exclude: [jetpack/jetpack.php]\n');

/** Five sites with the same update; it fails on sites 1 and 2. */
const WAVES_FLEET = `
sites:
${[1, 2, 3, 4, 5]
  .map(
    (id) =>
      `  - {id: ${id}, url: https://s${id}.fleet.test/, plugins: {akismet/akismet.php: "5.3.0 -> 5.3.1"}${id <= 2 ? ', fail: ["plugin:akismet/akismet.php"]' : ''}}`,
  )
  .join('\n')}
`;
const WAVES_CONFIG = `version: 1
updates:
  - name: routine
    sites: [all]
    kinds: [plugins]
    max: minor
rollout:
  waves:
    - {name: first, sites: [s1.fleet.test, s2.fleet.test, s3.fleet.test, s4.fleet.test], max_failures: 2}
`;

describe('a saved plan and its desired state', () => {
  it('refuses `apply PLANFILE -c` with another desired state, sending nothing', async () => {
    const w = await open();
    w.fs.writeFileSync('/work/b.yaml', OTHER);
    const planned = await run(w, ['plan', '--out', 'p.json']);
    expect(planned.code, planned.stderr).toBe(0);
    const refused = await run(w, ['apply', 'p.json', '-c', 'b.yaml']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error [CONFLICTING_PARAMETERS]');
    expect(refused.stderr).toContain('b.yaml');
    expect(await writesSent(w)).toBe(0);
    // The plan itself is still good: without -c (or with its own config) it applies.
    const applied = await run(w, ['apply', 'p.json', '-c', 'svc-gitops.yaml']);
    expect(applied.code, applied.stderr).toBe(0);
  });

  it('applies a plan file alone with the wave thresholds it was made with', async () => {
    const w = await open({ fleet: WAVES_FLEET, config: WAVES_CONFIG });
    const planned = await run(w, ['plan', '--out', '/plans/p.json']);
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(w.fs.readFileSync('/plans/p.json', 'utf8') as string) as Plan;
    expect(plan.wave_limits).toEqual({ first: 2 });
    // No config where the plan is applied: the thresholds come from the plan.
    w.fs.rmSync('/work/svc-gitops.yaml');
    const applied = await run(w, ['apply', '/plans/p.json', '--format', 'json']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).not.toContain('every wave stops at its first failed update');
    const report = JSON.parse(applied.stdout) as {
      outcomes: Array<{ status: string; action: { site_id: number } }>;
    };
    const bySite = new Map(report.outcomes.map((o) => [o.action.site_id, o.status]));
    // Two failures are within the wave's max_failures of 2: the rollout goes on to site 5. (With
    // an unknown threshold the wave stopped at its first failure and site 5 was skipped.)
    expect([...bySite.entries()].sort()).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'done'],
      [4, 'done'],
      [5, 'done'],
    ]);
  });
});
