/**
 * How few write calls apply sends, and how long a fleet's apply takes. Prints, side by side:
 *  1. small generated fleets (5–30 sites, few items, some pending updates the plan leaves alone):
 *     the update calls batchPlan chooses ÷ the exact minimum found by an exhaustive search
 *     written apart from the batcher (exact-grouping.ts); target ≤ 1.05;
 *  2. the reference fleet (default 10,000 sites, the apply benchmark's config): batchPlan's update
 *     calls ÷ those of two simple groupings written apart (grouping-baselines.ts): one call per
 *     item per 200 sites, and first fit; plus all write calls against the floor of one per site
 *     with ignores and ⌈sites with updates ÷ 200⌉;
 *  3. apply's wall time at default settings (concurrency 4, 60 calls a minute) with 100 ms added
 *     to every write call, for an update-only config on the reference fleet (a config that also
 *     ignores an item on every site needs one call per site: at 60 a minute that is sites ÷ 60
 *     minutes whatever the grouping, and is printed as such).
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
import { createRandom } from '../../src/sandbox/random.js';
import { loadSettings } from '../../src/settings/index.js';
import type { Action, ItemKind, LiveState, Plan } from '../../src/types.js';
import { exactMinimumCalls, type SmallSite } from './exact-grouping.js';
import { type FleetSite, firstFitCalls, perItemCalls } from './grouping-baselines.js';
import { benchSettings, desiredFromText } from './harness.js';

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '10000' },
    small: { type: 'string', default: '40' },
    'no-wall': { type: 'boolean', default: false },
  },
});
const sites = Number(values.sites);

const updateCalls = (actions: Action[], pending: LiveState['pending'] | undefined, threshold = 200) =>
  batchPlan(actions, threshold, pending)
    .filter((p) => p.kind === 'update')
    .reduce((n, p) => n + p.calls.length, 0);

// 1. Small fleets against the exact minimum.
{
  const random = createRandom(2026);
  const ITEMS: Array<{ kind: ItemKind; slug: string }> = [
    { kind: 'plugin', slug: 'a/a.php' },
    { kind: 'plugin', slug: 'b/b.php' },
    { kind: 'plugin', slug: 'c/c.php' },
    { kind: 'theme', slug: 'astra' },
    { kind: 'theme', slug: 'neve' },
    { kind: 'translation', slug: 'astra' },
    { kind: 'translation', slug: 'a' },
    { kind: 'core', slug: 'wordpress' },
  ];
  let chosen = 0;
  let minimum = 0;
  let worst = 0;
  let unproven = 0;
  const fleets = Number(values.small);
  for (let f = 0; f < fleets; f++) {
    const n = random.int(5, 30);
    const leaveRate = random.next() * 0.4;
    const actions: Action[] = [];
    const pending: LiveState['pending'] = [];
    const small: SmallSite[] = [];
    for (let id = 1; id <= n; id++) {
      const wanted: SmallSite['wanted'][number][] = [];
      const blocked: SmallSite['blocked'][number][] = [];
      for (const item of ITEMS) {
        if (random.next() > 0.35) continue;
        pending.push({ siteId: id, ...item, name: item.slug, from: '1.0', to: '1.1' });
        if (random.next() < leaveRate) blocked.push(item);
        else {
          wanted.push(item);
          actions.push({
            op: 'update',
            site_id: id,
            site_url: `https://s${id}.test/`,
            ...item,
            name: item.slug,
            from: '1.0',
            to: '1.1',
            risk: 'medium',
            reason: 'bench',
          });
        }
      }
      small.push({ wanted, blocked });
    }
    const calls = updateCalls(actions, pending);
    const exact = exactMinimumCalls(small);
    if (exact === undefined) {
      unproven++;
      continue;
    }
    chosen += calls;
    minimum += exact;
    worst = Math.max(worst, exact === 0 ? 1 : calls / exact);
  }
  console.log(
    `small fleets (${fleets}, 5-30 sites): update calls / exact minimum = ${chosen} / ${minimum} = ${(chosen / minimum).toFixed(3)}; worst fleet ${worst.toFixed(2)}${unproven ? `; ${unproven} fleet(s) left out (search budget)` : ''}`,
  );
}

// 2. The reference fleet against simple groupings written apart.
const CONFIG = `version: 1
ignores:
  rules:
    - sites: [all]
      plugins: [jetpack/jetpack.php]
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
`;
const UPDATES_ONLY = `version: 1
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
`;
const fleet = generateFleet({ sites, pendingPerSite: 3, ignoredPerSite: 0, seed: 42 });
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
    `  all write calls ${ignoreCalls + ours} (ignores ${ignoreCalls}, one per site and kind: the interface has no multi-site ignore) / floor ${floor} = ${((ignoreCalls + ours) / floor).toFixed(3)}; at 60 calls a minute that is ${((ignoreCalls + ours) / 60).toFixed(0)} min`,
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
  // The settings a user gets without setting anything (concurrency 4, 60 calls a minute, …).
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
    settings: { safeMode: false, concurrency: 4 },
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
    `apply at default settings (concurrency 4, 60 calls/min, 8 KiB request line), 100 ms per write, ${plan.summary.update} updates on ${sites} sites: ${calls} calls, ${((ended - started) / 1000).toFixed(1)} s wall (re-read before ${(reread / 1000).toFixed(1)} s, confirming re-read ${((ended - confirming) / 1000).toFixed(1)} s); ${notDone} action(s) not confirmed done; journal ${(journalBytes / 1024).toFixed(0)} KiB`,
  );
  await client.close();
  await sandbox.close();
}
