/**
 * How few write calls apply sends, and how long a fleet's apply takes. Prints, side by side:
 *  1. small generated fleets (5–30 sites, few items, some pending updates the plan leaves alone):
 *     the update calls batchPlan chooses ÷ the exact minimum found by an exhaustive search
 *     written apart from the batcher (exact-grouping.ts); target ≤ 1.05;
 *  2. the reference fleet (default 10,000 sites, the apply benchmark's config): batchPlan's update
 *     calls ÷ those of two simple groupings written apart (grouping-baselines.ts): one call per
 *     item per 200 sites, and first fit; plus all write calls against the floor of one per site
 *     with ignores and ⌈sites with updates ÷ 200⌉;
 *  3. apply's wall time at default settings (read from the settings schema: up to 8 requests in
 *     flight, adaptively paced, no fixed rate) with 100 ms added to every write call, for an
 *     update-only config on the reference fleet (a config that also ignores an item on every site
 *     needs one call per site whatever the grouping; line 2 prints what that costs at a fixed
 *     60 calls a minute, for a dashboard that sets one).
 * The reference fleet is `sandbox --generate sites=10000,pending=6,ignored=3`.
 * Usage: npx tsx scripts/bench/apply-calls.ts [--sites N] [--small N] [--no-wall]
 */

import * as fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { applyPlan, batchPlan } from '../../src/apply/index.js';
import { openJournal } from '../../src/apply/journal.js';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { createPlan } from '../../src/plan/index.js';
import { generateFleet, startSandbox } from '../../src/sandbox/index.js';
import { loadSettings, type Settings } from '../../src/settings/index.js';
import type { Action, LiveState, Plan } from '../../src/types.js';
import { exactMinimumCalls } from './exact-grouping.js';
import { type FleetSite, firstFitCalls, perItemCalls } from './grouping-baselines.js';
import { benchSettings, REFERENCE_CONFIG as CONFIG, desiredFromText } from './harness.js';
import { smallFleets } from './small-fleets.js';

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '10000' },
    small: { type: 'string', default: '40' },
    'no-wall': { type: 'boolean', default: false },
  },
});
const sites = Number(values.sites);

/** What the settings make of the pace, in words: the label must say what was run. */
function pacingLabel(settings: Settings): string {
  const rate =
    settings.rateLimit === undefined
      ? 'adaptive pacing, no fixed rate'
      : settings.rateLimit === 0
        ? 'no rate limit'
        : `at most ${settings.rateLimit} calls/min`;
  return `up to ${settings.concurrency} in flight, ${rate}`;
}

const updateCalls = (actions: Action[], pending: LiveState['pending'] | undefined, threshold = 200) =>
  batchPlan(actions, threshold, pending)
    .filter((p) => p.kind === 'update')
    .reduce((n, p) => n + p.calls.length, 0);

// 1. Small fleets against the exact minimum.
{
  let chosen = 0;
  let minimum = 0;
  let worst = 0;
  let unproven = 0;
  let slowest = 0;
  const losses: string[] = [];
  const fleets = smallFleets(Number(values.small), { min: 5, max: 30 });
  fleets.forEach((fleet, f) => {
    const started = performance.now();
    const calls = updateCalls(fleet.actions, fleet.pending);
    slowest = Math.max(slowest, performance.now() - started);
    const exact = exactMinimumCalls(fleet.sites);
    if (exact === undefined) {
      unproven++;
      return;
    }
    chosen += calls;
    minimum += exact;
    worst = Math.max(worst, exact === 0 ? 1 : calls / exact);
    if (calls > exact)
      losses.push(`fleet ${f} (${fleet.sites.length} sites): ${calls} calls, minimum ${exact}`);
  });
  console.log(
    `small fleets (${fleets.length}, 5-30 sites): update calls / exact minimum = ${chosen} / ${minimum} = ${(chosen / minimum).toFixed(3)}; worst fleet ${worst.toFixed(2)}; slowest grouping ${slowest.toFixed(0)} ms${unproven ? `; ${unproven} fleet(s) left out (search budget)` : ''}`,
  );
  for (const loss of losses) console.log(`  above the minimum: ${loss}`);
}

// 2. The reference fleet against simple groupings written apart.
const UPDATES_ONLY = `version: 1
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
`;
const fleet = generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 3, seed: 42 });
const settingsFor = (sandbox: { url: string; env(): Record<string, string> }, extra = {}) =>
  benchSettings({ url: sandbox.url, env: sandbox.env() }, { safeMode: false, ...extra });

async function planOf(config: string): Promise<{ plan: Plan; live: LiveState }> {
  const sandbox = await startSandbox({ fleet, profile: 'spec' });
  const client = createDashboardClient(settingsFor(sandbox, { concurrency: 4 }));
  const live = await client.readLive();
  const plan = createPlan(await desiredFromText(config), live, { now: new Date(), lifetimeMinutes: 60 });
  await client.close();
  await sandbox.close();
  return { plan, live };
}

{
  const { plan, live } = await planOf(CONFIG);
  const bySite = new Map<number, FleetSite>();
  const site = (id: number) => {
    let s = bySite.get(id);
    if (!s) {
      s = { id, wanted: [], blocked: [] };
      bySite.set(id, s);
    }
    return s;
  };
  const wantedKeys = new Set<string>();
  for (const a of plan.actions)
    if (a.op === 'update') {
      (site(a.site_id).wanted as FleetSite['wanted'][number][]).push({ kind: a.kind, slug: a.slug });
      wantedKeys.add(`${a.site_id}|${a.kind}|${a.slug}`);
    }
  for (const p of live.pending)
    if (!wantedKeys.has(`${p.siteId}|${p.kind}|${p.slug}`) && bySite.has(p.siteId))
      (site(p.siteId).blocked as FleetSite['blocked'][number][]).push({ kind: p.kind, slug: p.slug });
  const fleetSites = [...bySite.values()].sort((a, b) => a.id - b.id);
  const started = performance.now();
  const ours = updateCalls(plan.actions, live.pending);
  const ms = performance.now() - started;
  const perItem = perItemCalls(fleetSites, 200);
  const firstFit = firstFitCalls(fleetSites, 200);
  const ignoreCalls = new Set(
    plan.actions.filter((a) => a.op !== 'update').map((a) => `${a.op}|${a.site_id}|${a.kind}`),
  ).size;
  const floor = ignoreCalls + Math.ceil(fleetSites.length / 200);
  console.log(
    `reference fleet (${sites} sites, ${plan.summary.update} updates on ${fleetSites.length} sites): update calls ${ours} (grouped in ${ms.toFixed(0)} ms); / per-item grouping ${perItem} = ${(ours / perItem).toFixed(2)}; / first fit ${firstFit} = ${(ours / firstFit).toFixed(2)}; / floor ⌈${fleetSites.length} ÷ 200⌉ = ${Math.ceil(fleetSites.length / 200)}: ${(ours / Math.ceil(fleetSites.length / 200)).toFixed(2)}`,
  );
  console.log(
    `  all write calls ${ignoreCalls + ours} (ignores ${ignoreCalls}, one per site and kind: the interface has no multi-site ignore) / floor ${floor} = ${((ignoreCalls + ours) / floor).toFixed(3)}; with a fixed limit of 60 calls a minute (SVC_RATE_LIMIT=60; the default has none) that would be ${((ignoreCalls + ours) / 60).toFixed(0)} min`,
  );
}

// 3. Wall time at default settings, 100 ms per write call.
if (!values['no-wall']) {
  const { plan } = await planOf(UPDATES_ONLY);
  const sandbox = await startSandbox({
    fleet,
    profile: 'spec',
    faults: [{ kind: 'latency', delayMs: 100, method: 'POST' }],
  });
  // The settings a user gets without setting anything.
  const { settings } = loadSettings({ env: sandbox.env(), cwd: tmpdir(), fs, homeDir: tmpdir() });
  const client = createDashboardClient({ ...settings, safeMode: false });
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-calls-'));
  const journal = openJournal(fs, join(dir, 'journal.jsonl'));
  const started = performance.now();
  let calls = 0;
  let confirming = 0;
  // As the CLI does for a saved plan: re-read the touched sites, then apply with what they hold.
  const touched = [...new Set(plan.actions.map((a) => a.site_id))];
  const before = await client.readLive({ siteIds: touched });
  const reread = performance.now() - started;
  const result = await applyPlan(plan, {
    client,
    live: { capabilities: before.capabilities, pending: before.pending },
    settings: { safeMode: false, concurrency: settings.concurrency },
    journal,
    onEvent: (event) => {
      if (event.type === 'start') calls = event.calls;
      if (event.type === 'verify') confirming = performance.now();
    },
  });
  const ended = performance.now();
  journal.close();
  const journalBytes = fs.statSync(join(dir, 'journal.jsonl')).size;
  rmSync(dir, { recursive: true, force: true });
  const notDone = result.outcomes.filter((o) => o.status !== 'done' || o.unverified).length;
  console.log(
    `apply at default settings (${pacingLabel(settings)}, 8 KiB request line), 100 ms per write, ${plan.summary.update} updates on ${sites} sites: ${calls} calls, ${((ended - started) / 1000).toFixed(1)} s wall (re-read before ${(reread / 1000).toFixed(1)} s, confirming re-read ${((ended - confirming) / 1000).toFixed(1)} s); ${notDone} action(s) not confirmed done; journal ${(journalBytes / 1024).toFixed(0)} KiB`,
  );
  await client.close();
  await sandbox.close();
}
