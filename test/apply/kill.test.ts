import { describe, expect, it } from 'vitest';
import { runKillTrial, type TrialResult } from '../../scripts/soak/kill-harness.js';
import { killPoints, runPointTrial } from '../../scripts/soak/kill-points.js';

/**
 * Five seeded trials of the kill test (the 50-trial soak is scripts/soak/kill-apply.ts): a child
 * `svc-gitops apply` killed at a random point, then re-run to completion; the sandbox must end
 * in the desired state with no update run twice. One test per trial, so each stays short.
 */
describe('apply killed at random points and re-run', () => {
  const results: TrialResult[] = [];
  it.each([0, 1, 2, 3, 4])('converges with no update run twice (seeded trial %i)', async (trial) => {
    const result = await runKillTrial(trial, 1, trial % 2 === 0 ? 'spec' : 'compat-6.1');
    results.push(result);
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  });

  it('landed some kills while calls were being sent, not only before or after', () => {
    expect(results).toHaveLength(5);
    expect(results.some((r) => r.writesBeforeKill > 0)).toBe(true);
  });
});

/**
 * A saved plan killed at every write from the apply's lock to its first `sent` line (the used
 * mark, the journal's opening, its run-start line and fsync between them): `apply --resume`
 * finishes it, or `apply plan.json` runs it when there is nothing to resume. A used mark without
 * a started run in the journal ("already applied", nothing to resume) fails here.
 */
describe('a saved plan killed at every point of its start', async () => {
  const points = await killPoints('spec');
  it.each(points.map((write, index) => ({ point: index + 1, write })))(
    'recovers when killed at write $point ($write)',
    async ({ point }) => {
      const result = await runPointTrial(point, point % 2 === 0 ? 'spec' : 'compat-6.1');
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    },
  );
});
