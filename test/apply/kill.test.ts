import { describe, expect, it } from 'vitest';
import { runKillTrial } from '../../scripts/soak/kill-harness.js';

/**
 * Five seeded trials of the kill test (the 50-trial soak is scripts/soak/kill-apply.ts): a child
 * `svc-gitops apply` killed at a random point, then re-run to completion; the sandbox must end
 * in the desired state with no update run twice.
 */
describe('apply killed at random points and re-run', () => {
  it('converges with no update run twice (5 seeded trials, both profiles)', {
    timeout: 120_000,
  }, async () => {
    const results = [];
    for (let trial = 0; trial < 5; trial++) {
      results.push(await runKillTrial(trial, 1, trial % 2 === 0 ? 'spec' : 'compat-6.1'));
    }
    expect(results.filter((r) => !r.ok)).toEqual([]);
    // The kills landed while calls were being sent, not only before or after.
    expect(results.some((r) => r.writesBeforeKill > 0)).toBe(true);
  });
});
