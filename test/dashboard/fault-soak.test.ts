import { describe, expect, it } from 'vitest';
import { runFaultSoak } from '../../scripts/soak/fault-harness.js';

/**
 * The short, seeded version of `npm run soak:faults` (issue 21, finding 1): plan runs of the demo
 * fleet through the project's fault proxy, which answers a fifth of all requests with a 5xx, a
 * 429, a reset, a cut-off or garbage 2xx body, an HTML page or a slow answer. Reads retried
 * under the retry policy get nearly every plan through; none may ever be a wrong plan.
 */
describe.each(['compat-6.1', 'spec'] as const)('plans through a faulty network (%s)', (profile) => {
  it('succeed at least 9 times in 10 at a 20 % fault rate, never with a wrong plan', async () => {
    const result = await runFaultSoak({
      runs: 30,
      seed: 7,
      rate: 0.2,
      profile,
      retryBaseDelay: 1,
      retryMaxDelay: 5,
    });
    expect(result.runs).toBe(30);
    expect(result.wrongPlans).toBe(0);
    // The faults really happened, of most kinds: this is no clean run.
    expect(Object.keys(result.faults).length).toBeGreaterThanOrEqual(6);
    expect(result.successes, JSON.stringify(result)).toBeGreaterThanOrEqual(27);
  });
});
