/**
 * Soak: 50 seeded kill-and-re-run trials of apply (see kill-harness.ts), alternating the sandbox
 * profiles, then a saved plan killed at every write of its start, on both profiles (see
 * kill-points.ts). Prints one line per trial and a verdict; exits 1 if any trial failed.
 * Usage: npx tsx scripts/soak/kill-apply.ts [--trials N] [--seed N]
 */
import { parseArgs } from 'node:util';
import { runKillTrial } from './kill-harness.js';
import { killPoints, runPointTrial } from './kill-points.js';

const { values } = parseArgs({
  options: { trials: { type: 'string', default: '50' }, seed: { type: 'string', default: '1' } },
});
const trials = Number(values.trials);
const seed = Number(values.seed);
let failed = 0;
for (let trial = 0; trial < trials; trial++) {
  const result = await runKillTrial(trial, seed, trial % 2 === 0 ? 'spec' : 'compat-6.1');
  if (!result.ok) failed += 1;
  console.log(
    `trial ${trial}: ${result.ok ? 'ok' : 'FAILED'} ${result.signal} at ${result.killAt}, child exit ${result.childExit} after ${result.writesBeforeKill} write calls, ` +
      `re-runs ${result.reruns.join(' ')}, remaining actions ${result.remainingActions}, max runs per update ${result.maxRunsPerUpdate}`,
  );
}
let pointTrials = 0;
for (const profile of ['spec', 'compat-6.1'] as const) {
  const points = await killPoints(profile);
  for (let point = 1; point <= points.length; point++) {
    const result = await runPointTrial(point, profile);
    pointTrials += 1;
    if (!result.ok) failed += 1;
    console.log(
      `${profile} saved plan killed at write ${point} (${result.write}): ${result.ok ? 'ok' : 'FAILED'}, ` +
        `recovery ${result.recovery.join(' ')}, remaining actions ${result.remainingActions}, max runs per update ${result.maxRunsPerUpdate}`,
    );
  }
}
const total = trials + pointTrials;
console.log(
  `kill-apply soak: ${total - failed}/${total} trials ok (seed ${seed}; ${pointTrials} at fixed points)`,
);
process.exit(failed === 0 ? 0 : 1);
