/**
 * Soak: N seeded `plan` runs of the demo fleet through the fault proxy (fault-harness.ts),
 * alternating nothing: one profile per invocation. Prints one line per failed run and a summary
 * of runs, successes, clean failures and wrong plans; exits 1 on any wrong plan, or when fewer
 * than --min-success of the runs succeed.
 * Usage: npm run soak:faults -- [--runs N] [--seed N] [--rate 0.1] [--profile spec|compat-6.1]
 *        [--real-delays] [--min-success 0.99]
 */
import { parseArgs } from 'node:util';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { runFaultSoak } from './fault-harness.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    rate: { type: 'string', default: '0.1' },
    profile: { type: 'string', default: 'compat-6.1' },
    'real-delays': { type: 'boolean', default: false },
    'min-success': { type: 'string', default: '0.99' },
  },
});
const runs = Number(values.runs);
const rate = Number(values.rate);
const started = performance.now();
const result = await runFaultSoak({
  runs,
  seed: Number(values.seed),
  rate,
  profile: values.profile as SandboxProfile,
  ...(values['real-delays'] ? { retryBaseDelay: 1000, retryMaxDelay: 2000 } : {}),
  onRun: (run) => {
    if (run.outcome !== 'success')
      console.log(
        `run ${run.index}: ${run.outcome} (${run.detail}), ${run.faults} faults in ${run.requests} requests`,
      );
  },
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const percent = (n: number) => `${((100 * n) / Math.max(1, result.runs)).toFixed(1)} %`;
console.log(
  `fault soak (${values.profile}, seed ${values.seed}, ${100 * rate} % of requests faulted, ${seconds} s): ` +
    `runs ${result.runs}, successes ${result.successes} (${percent(result.successes)}), ` +
    `clean failures ${result.cleanFailures}, wrong plans ${result.wrongPlans}`,
);
console.log(`requests ${result.requests}, faults ${JSON.stringify(result.faults)}`);
if (result.cleanFailures > 0) console.log(`failure codes ${JSON.stringify(result.failureCodes)}`);
const ok = result.wrongPlans === 0 && result.successes >= Number(values['min-success']) * result.runs;
process.exit(ok ? 0 : 1);
