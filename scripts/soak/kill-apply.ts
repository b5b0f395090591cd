/**
 * Soak: 50 seeded kill-and-re-run trials of apply (see kill-harness.ts), alternating the sandbox
 * profiles. Prints one line per trial and a verdict; exits 1 if any trial failed.
 * Usage: npx tsx scripts/soak/kill-apply.ts [--trials N] [--seed N]
 */
import { parseArgs } from 'node:util';
import { runKillTrial } from './kill-harness.js';

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
console.log(`kill-apply soak: ${trials - failed}/${trials} trials ok (seed ${seed})`);
process.exit(failed === 0 ? 0 : 1);
