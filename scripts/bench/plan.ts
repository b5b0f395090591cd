/**
 * Planner benchmark on a generated fleet (in memory, no dashboard): createPlan and the three
 * renderers on 10,000 sites with about 6 pending updates and 3 ignores per site, and a
 * 50-pending variant for peak memory. Each variant runs in its own child process so the peak
 * RSS it reports is its own. The ratio against the live read is measured by the full
 * benchmark, which reads the same fleet from the sandbox.
 *
 *   npx tsx scripts/bench/plan.ts [--sites N]            # both variants
 *   npx tsx scripts/bench/plan.ts --variant 50 --sites N # one variant, in this process
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPlan } from '../../src/plan/index.js';
import { planJsonChunks } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { planTextChunks } from '../../src/render/plan-text.js';
import type { DesiredState, LiveState } from '../../src/types.js';
import { argument } from './args.js';
import { benchDesiredState, generateFleet } from './fixtures.js';

function countChars(chunks: Iterable<string>): number {
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  return total;
}

function time<T>(run: () => T): [T, number] {
  const start = process.hrtime.bigint();
  const value = run();
  return [value, Number(process.hrtime.bigint() - start) / 1e6];
}

function runVariant(pendingPerSite: number, sites: number): void {
  const [live, generateMs] = time(() => generateFleet({ sites, pendingPerSite, ignoredPerSite: 3 }));
  const desired = benchDesiredState();
  const now = new Date('2026-03-01T12:00:00Z');
  const [plan, planMs] = time(() => createPlan(desired, live, { now, lifetimeMinutes: 60 }));
  // Text and JSON are streamed as the CLI writes them; only their sizes are kept here.
  const [textChars, textMs] = time(() => countChars(planTextChunks(plan)));
  const [markdown, markdownMs] = time(() => renderPlanMarkdown(plan, { live }));
  const [jsonChars, jsonMs] = time(() => countChars(planJsonChunks(plan)));
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const row = (label: string, value: string) => console.log(`  ${label.padEnd(28)} ${value}`);
  console.log(`variant: ${sites} sites, ~${pendingPerSite} pending and ~3 ignored per site`);
  row(
    'live facts',
    `${live.pending.length} pending, ${live.ignores.length} ignores (generated in ${generateMs.toFixed(0)} ms)`,
  );
  row('actions / notes', `${plan.actions.length} / ${plan.notes.length}`);
  row('createPlan', `${planMs.toFixed(0)} ms`);
  row('render text', `${textMs.toFixed(0)} ms (${(textChars / 1e6).toFixed(1)} M chars, streamed)`);
  row('render markdown', `${markdownMs.toFixed(0)} ms (${markdown.length} chars, capped)`);
  row('render json', `${jsonMs.toFixed(0)} ms (${(jsonChars / 1e6).toFixed(1)} M chars, streamed)`);
  row('createPlan + renders', `${(planMs + textMs + markdownMs + jsonMs).toFixed(0)} ms`);
  row('peak RSS', `${peakMb.toFixed(0)} MB (target ≤ 512 MB for the 50-pending variant)`);
  if (pendingPerSite === 6) perSiteRules(desired, live, now);
}

/**
 * The desired state `import` writes for a fleet whose sites all differ: one ignore rule per
 * site, naming it by address. Side by side with the one-rule state above, so the ratio shows
 * what the rule count costs (a scan of every rule per site would make it rules × sites).
 */
function perSiteRules(desired: DesiredState, live: LiveState, now: Date): void {
  const source = { file: 'svc-gitops.yaml', line: 5, col: 7, path: '/ignores/rules' };
  const perSite: DesiredState = {
    ...desired,
    ignores: live.sites.map((site) => ({
      selection: { include: [{ type: 'domain', domain: new URL(site.url).host }], exclude: [] },
      core: false,
      plugins: ['plugin-1/plugin-1.php'],
      themes: [],
      source,
    })),
  };
  const one: number[] = [];
  const many: number[] = [];
  for (let round = 0; round < 5; round++) {
    one.push(time(() => createPlan(desired, live, { now, lifetimeMinutes: 60 }))[1]);
    many.push(time(() => createPlan(perSite, live, { now, lifetimeMinutes: 60 }))[1]);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
  console.log(
    `  ${'per-site ignore rules'.padEnd(28)} ${perSite.ignores.length} rules: createPlan ${median(many).toFixed(0)} ms ÷ one rule ${median(one).toFixed(0)} ms = ${(median(many) / median(one)).toFixed(2)} (medians of 5, alternating)`,
  );
}

const variant = argument('variant');
const sites = Number(argument('sites') ?? 10_000);
if (variant !== undefined) {
  runVariant(Number(variant), sites);
} else {
  const self = fileURLToPath(import.meta.url);
  for (const pending of [6, 50]) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, self, '--variant', String(pending), '--sites', String(sites)],
      {
        stdio: 'inherit',
      },
    );
    if (child.status !== 0) process.exitCode = child.status ?? 1;
  }
  console.log(
    'ratio to the live read: measured by the full benchmark against the sandbox (same fleet generator)',
  );
}
