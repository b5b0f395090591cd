/**
 * Apply benchmark on a generated fleet (default 10,000 sites, sandbox `spec` profile). Prints:
 *  - write calls the sandbox counted ÷ the calls batchPlan chose (must be 1.00: apply sends each
 *    batched call as one request); how close those calls are to the fewest possible is
 *    scripts/bench/apply-calls.ts;
 *  - apply time ÷ a bare loop sending the same calls (raw HTTP POSTs of the same ability inputs
 *    at the same concurrency, no journal, no outcomes), measured side by side on fresh sandboxes,
 *    best of several rounds; apply's time is shown with and without its confirming re-read, and
 *    for reference without the journal and as the bare client (to show where the time goes).
 * Usage: npx tsx scripts/bench/apply.ts [--sites N] [--rounds N] [--concurrency N]
 */

import * as fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { type ApplyCall, applyPlan, batchPlan } from '../../src/apply/index.js';
import { openJournal } from '../../src/apply/journal.js';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { createPlan } from '../../src/plan/index.js';
import { type Fleet, generateFleet, startSandbox } from '../../src/sandbox/index.js';
import { createSettingsValidator } from '../../src/settings/index.js';
import type { PendingUpdate, Plan } from '../../src/types.js';
import {
  basicAuth,
  benchSettings,
  best,
  REFERENCE_CONFIG as CONFIG,
  desiredFromText,
  inParallel,
  ratioText,
  timed,
} from './harness.js';

const DEFAULT_CONCURRENCY = Number(createSettingsValidator().defaults().concurrency);

const { values } = parseArgs({
  options: {
    sites: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '2' },
    // The product's default (settings schema): apply's window adapts between 1 and this.
    concurrency: { type: 'string', default: String(DEFAULT_CONCURRENCY) },
  },
});
const sites = Number(values.sites);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);

const WRITE_ABILITIES = /ignore-site-|set-ignored-updates|run-updates/;

// The reference fleet: `sandbox --generate sites=10000,pending=6,ignored=3`.
const fleet = generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 3, seed: 42 });

/** Apply runs with safe mode off: the benchmark measures the calls, not the approval gate. */
const settingsFor = (sandbox: { url: string; env(): Record<string, string> }) =>
  benchSettings({ url: sandbox.url, env: sandbox.env() }, { safeMode: false, concurrency });

async function writesCounted(url: string): Promise<number> {
  const stats = (await (await fetch(`${url}/__sandbox/stats`)).json()) as {
    abilities: Record<string, number>;
  };
  return Object.entries(stats.abilities).reduce(
    (n, [name, count]) => n + (WRITE_ABILITIES.test(name) ? count : 0),
    0,
  );
}

async function planFor(the: Fleet): Promise<{ plan: Plan; threshold: number; pending: PendingUpdate[] }> {
  const sandbox = await startSandbox({ fleet: the, profile: 'spec' });
  const client = createDashboardClient(settingsFor(sandbox));
  const live = await client.readLive();
  const plan = createPlan(await desiredFromText(CONFIG), live, { now: new Date(), lifetimeMinutes: 60 });
  await client.close();
  await sandbox.close();
  return { plan, threshold: live.capabilities.queueThreshold, pending: live.pending };
}

async function timeApply(
  plan: Plan,
  threshold: number,
  withJournal: boolean,
): Promise<{ ms: number; msCalls: number; writes: number; failed: number }> {
  const sandbox = await startSandbox({ fleet, profile: 'spec' });
  const client = createDashboardClient(settingsFor(sandbox));
  await client.capabilities(); // the catalogue read is not part of applying
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-apply-'));
  const journal = openJournal(fs, join(dir, 'journal.jsonl'));
  let callsEnded = 0;
  const started = performance.now();
  const result = await applyPlan(plan, {
    client,
    live: {
      capabilities: {
        surface: 'abilities',
        canUnignore: true,
        canIgnore: true,
        canIgnoreCore: true,
        queueThreshold: threshold,
      },
      pending,
    },
    settings: { safeMode: false, concurrency },
    journal: withJournal ? journal : undefined,
    onEvent: (event) => {
      if (event.type === 'verify') callsEnded = performance.now();
    },
  });
  const ended = performance.now();
  journal.close();
  rmSync(dir, { recursive: true, force: true });
  const writes = await writesCounted(sandbox.url);
  await client.close();
  await sandbox.close();
  return {
    ms: ended - started,
    msCalls: (callsEnded || ended) - started,
    writes,
    failed: result.outcomes.filter((o) => o.status === 'failed').length,
  };
}

/** The same calls as raw ability POSTs at the same concurrency: the floor apply is measured against. */
async function timeBareLoop(plan: Plan, threshold: number): Promise<{ ms: number; writes: number }> {
  const sandbox = await startSandbox({ fleet, profile: 'spec' });
  const auth = basicAuth(sandbox.credentials);
  const agent = new Agent({ connections: concurrency });
  const post = async (ability: string, input: Record<string, unknown>) => {
    const url = `${sandbox.url}/wp-json/wp-abilities/v1/abilities/svc/${ability}/run`;
    const res = await request(url, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
      dispatcher: agent,
    });
    JSON.parse(await res.body.text());
  };
  const send = (call: ApplyCall) =>
    call.type === 'set-ignored'
      ? post(`ignore-site-${call.kind === 'core' ? 'core' : `${call.kind}s`}-v1`, {
          site_id_or_domain: call.siteId,
          action: call.direction === 'ignore' ? 'add' : 'remove',
          ...(call.kind === 'core' ? {} : { slugs: call.slugs }),
        })
      : post('run-updates-v1', {
          site_ids_or_domains: call.siteIds,
          types: [...new Set(call.items.map((i) => (i.kind === 'core' ? 'core' : `${i.kind}s`)))],
          specific_items: call.items.map((i) => i.slug),
        });
  const { ms } = await timed(async () => {
    for (const phase of batchPlan(plan.actions, threshold, pending))
      await inParallel(phase.calls.length, concurrency, (i) => send(phase.calls[i]!));
  });
  const writes = await writesCounted(sandbox.url);
  await agent.close();
  await sandbox.close();
  return { ms, writes };
}

/** The same calls through the dashboard client, without apply: separates client cost from apply's. */
async function timeClientLoop(plan: Plan, threshold: number): Promise<{ ms: number }> {
  const sandbox = await startSandbox({ fleet, profile: 'spec' });
  const client = createDashboardClient(settingsFor(sandbox));
  await client.capabilities();
  const { ms } = await timed(async () => {
    for (const phase of batchPlan(plan.actions, threshold, pending)) {
      await inParallel(phase.calls.length, concurrency, (i) => {
        const call = phase.calls[i]!;
        return call.type === 'set-ignored' ? client.setIgnored(call) : client.runUpdates(call);
      });
    }
  });
  await client.close();
  await sandbox.close();
  return { ms };
}

const { plan, threshold, pending } = await planFor(fleet);
const chosen = batchPlan(plan.actions, threshold, pending).reduce((n, p) => n + p.calls.length, 0);
const applyRuns: Array<Awaited<ReturnType<typeof timeApply>>> = [];
const bareRuns: Array<Awaited<ReturnType<typeof timeBareLoop>>> = [];
const clientRuns: number[] = [];
const unjournalledRuns: Array<Awaited<ReturnType<typeof timeApply>>> = [];
for (let round = 0; round < rounds; round++) {
  bareRuns.push(await timeBareLoop(plan, threshold));
  clientRuns.push((await timeClientLoop(plan, threshold)).ms);
  applyRuns.push(await timeApply(plan, threshold, true));
  unjournalledRuns.push(await timeApply(plan, threshold, false));
}
const bare = best(bareRuns.map((r) => r.ms));
const applied = best(applyRuns.map((r) => r.ms));
const calls = best(applyRuns.map((r) => r.msCalls));
const writes = applyRuns[0]!.writes;
console.log(
  `fleet: ${sites} sites; plan: ${plan.summary.ignore} ignores, ${plan.summary.unignore} unignores, ${plan.summary.update} updates on ${plan.summary.sites} sites; up to ${concurrency} in flight (adaptive window${concurrency === DEFAULT_CONCURRENCY ? ', the default' : ''}), no rate limit; best of ${rounds}`,
);
console.log(
  `write calls issued / calls batched: ${writes} / ${chosen} = ${(writes / chosen).toFixed(2)} (bare loop sent ${bareRuns[0]!.writes})`,
);
console.log(`apply calls phase / bare loop: ${ratioText(calls, bare)}`);
console.log(`apply incl. confirming re-read / bare loop: ${ratioText(applied, bare)}`);
const clientLoop = best(clientRuns);
console.log(
  `(for reference) the same calls through the dashboard client alone ${clientLoop.toFixed(0)} ms / bare loop = ${(clientLoop / bare).toFixed(2)}`,
);
const unjournalled = best(unjournalledRuns.map((r) => r.msCalls));
console.log(
  `(for reference) apply calls phase without the journal ${unjournalled.toFixed(0)} ms / bare loop = ${(unjournalled / bare).toFixed(2)}; the rest is the journal's fsyncs`,
);
console.log(`failed actions in apply runs: ${applyRuns.map((r) => r.failed).join(', ')}`);
