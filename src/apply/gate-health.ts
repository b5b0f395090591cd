import type { DashboardClient } from '../dashboard/client.js';
import { DEFAULT_HEALTH, siteProblem } from '../plan/index.js';
import type { HealthRules, PlanGate } from '../types.js';

/** Why a wave's `after` gate is shut by the earlier wave's health now; undefined: healthy. */
export type GateHealth = (wave: string | undefined) => Promise<string | undefined>;

/** Unhealthy sites named in the message; the rest are counted. */
const NAMED = 3;

/**
 * The health half of a recorded `after` gate, judged again when apply is about to write the
 * wave: the earlier wave's sites the plan recorded are checked now, and any unhealthy one (or a
 * check the dashboard refused) shuts the gate, as at plan time. A saved plan may be applied
 * long after it was made; a canary that broke since must not let the next wave through. Each
 * wave is checked once per run (the answer is kept).
 */
export function gateHealthCheck(
  gates: readonly PlanGate[] | undefined,
  client: Pick<DashboardClient, 'checkSites'>,
  rules: HealthRules | undefined,
  signal: AbortSignal | undefined,
): GateHealth {
  const answers = new Map<string | undefined, Promise<string | undefined>>();
  const check = async (wave: string | undefined): Promise<string | undefined> => {
    const after = gates?.find((gate) => gate.wave === wave)?.after;
    if (!after?.site_ids || after.site_ids.length === 0) return undefined;
    const readings = await client.checkSites(after.site_ids, signal ? { signal } : {});
    const unhealthy = readings.flatMap((reading) => {
      const problem = siteProblem(reading, rules ?? DEFAULT_HEALTH);
      return problem === undefined ? [] : [`site ${reading.siteId}: ${problem}`];
    });
    // A site the answer left out is not known to be healthy.
    const answered = new Set(readings.map((reading) => reading.siteId));
    for (const id of after.site_ids) if (!answered.has(id)) unhealthy.push(`site ${id}: not checked`);
    if (unhealthy.length === 0) return undefined;
    const more = unhealthy.length > NAMED ? `; and ${unhealthy.length - NAMED} more` : '';
    return `wave ${wave} starts only once wave ${after.wave} is healthy: a health check at apply time found ${unhealthy.length} unhealthy site(s) in it (${unhealthy.slice(0, NAMED).join('; ')}${more})`;
  };
  return (wave) => {
    let answer = answers.get(wave);
    if (!answer) {
      answer = check(wave);
      answers.set(wave, answer);
    }
    return answer;
  };
}
