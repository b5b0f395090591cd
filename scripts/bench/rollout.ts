/**
 * Safe-rollout benchmark on a 10,000-site fleet. Prints, measured side by side in one run:
 *  - createPlan with every update gated (a closed window, a soak time, waves that start `after`
 *    another) ÷ createPlan of the same fleet without gates (in memory, generated fleet), with the
 *    number of notes the waiting updates become (they merge per fact: the plan stays readable);
 *  - a plan-time health check of 1,000 sites (check-site-v1, one call each) ÷ the live read of the
 *    whole fleet, against the sandbox (no rate limit).
 * Usage: npx tsx scripts/bench/rollout.ts [--sites N] [--rounds N] [--checked N]
 */
import { parseArgs } from 'node:util';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { createPlan } from '../../src/plan/index.js';
import { generateFleet as generateSandboxFleet, startSandbox } from '../../src/sandbox/index.js';
import type { DesiredState, PlanRollout } from '../../src/types.js';
import { benchDesiredState, generateFleet } from './fixtures.js';
import { alternate, benchSettings, median, ratioText, timed } from './harness.js';

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '7' },
    checked: { type: 'string', default: '1000' },
  },
});
const sites = Number(values.sites);
const rounds = Number(values.rounds);
const checked = Number(values.checked);

const now = new Date('2026-03-01T12:00:00Z');
const live = generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 3 });
const plain = benchDesiredState();
const day = 86_400_000;
const gated: DesiredState = {
  ...plain,
  policies: plain.policies.map((policy, index) => ({
    ...policy,
    // Every other policy waits for a window closed at `now` (12:00 UTC); the rest soak.
    ...(index % 2 === 0
      ? { window: { schedule: ['* 22-23 * * *'], timezone: 'Europe/Berlin' } }
      : { minReleaseAge: { text: '3d', ms: 3 * day } }),
  })),
  waves: [
    {
      name: 'canary',
      selection: { include: [{ type: 'glob', pattern: 'site1?.fleet.test' }], exclude: [] },
      maxFailures: 0,
    },
    {
      name: 'rest',
      selection: { include: [{ type: 'all' }], exclude: [] },
      maxFailures: 0,
      after: { wave: 'canary', healthyFor: { text: '24h', ms: day } },
    },
  ],
};
const rollout: PlanRollout = { state: { first_seen: {}, waves: {} }, health: {} };
const options = { now, lifetimeMinutes: 60 };

const runs = await alternate(
  rounds,
  async () => timed(() => createPlan(gated, live, { ...options, rollout })),
  async () => timed(() => createPlan(plain, live, options)),
);
const gatedPlan = runs.a[0]!.value;
const plainPlan = runs.b[0]!.value;
const waiting = gatedPlan.notes.filter((note) => note.kind === 'waiting');
console.log(`createPlan, ${sites} sites, ${live.pending.length} pending (median of ${rounds}, alternating):`);
console.log(
  `  gated ÷ plain: ${ratioText(median(runs.a.map((r) => r.ms)), median(runs.b.map((r) => r.ms)))}`,
);
console.log(
  `  actions: ${gatedPlan.actions.length} gated, ${plainPlan.actions.length} plain; waiting notes: ${waiting.length} (listing ${waiting.reduce((n, note) => n + (note.site_ids?.length ?? 0), 0)} site entries)`,
);

const sandbox = await startSandbox({
  fleet: generateSandboxFleet({ sites, pendingPerSite: 6, seed: 7 }),
  profile: 'spec',
});
const served = { url: sandbox.url, env: sandbox.env() };
const client = createDashboardClient(benchSettings(served));
try {
  const ids = Array.from({ length: checked }, (_, i) => i + 1);
  const measured = await alternate(
    Math.max(1, Math.floor(rounds / 2)),
    async () => timed(() => client.checkSites(ids)),
    async () => timed(() => client.readLive()),
  );
  const unhealthy = measured.a[0]!.value.filter((reading) => !reading.online).length;
  console.log(`health check of ${checked} sites ÷ live read of ${sites} sites (sandbox, concurrency 4):`);
  console.log(
    `  ${ratioText(median(measured.a.map((r) => r.ms)), median(measured.b.map((r) => r.ms)))} (${unhealthy} offline in the generated fleet)`,
  );
} finally {
  await client.close();
  await sandbox.close();
}
