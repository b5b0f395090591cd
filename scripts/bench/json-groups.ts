/**
 * What `--format json --group-by item|site` costs on a generated fleet (in memory, no dashboard;
 * 10,000 sites, ~6 pending and ~3 ignored per site by default): the JSON plan written with each
 * grouping ÷ without, in size and time (streamed as the CLI writes it), and a saved file read back
 * (`readPlanFile`: schema check, and for a grouped file the groups recomputed and compared) ÷ the
 * ungrouped file's read. Rounds alternate between the variants; medians are printed.
 *
 *   npx tsx scripts/bench/json-groups.ts [--sites N] [--rounds N]
 */
import * as fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPlanFile } from '../../src/engine/index.js';
import { createPlan } from '../../src/plan/index.js';
import { type GroupBy, planGroups } from '../../src/render/plan-groups.js';
import { planJsonChunks } from '../../src/render/plan-json.js';
import { argumentOr } from './args.js';
import { benchDesiredState, generateFleet } from './fixtures.js';
import { median, ratioText } from './harness.js';

const sites = Number(argumentOr('sites', '10000'));
const rounds = Number(argumentOr('rounds', '5'));
const live = generateFleet({ sites, pendingPerSite: 6, ignoredPerSite: 3 });
const plan = createPlan(benchDesiredState(), live, {
  now: new Date('2026-03-01T12:00:00Z'),
  lifetimeMinutes: 60,
});

const VARIANTS: Array<GroupBy | undefined> = [undefined, 'item', 'site'];
const label = (by: GroupBy | undefined) => (by === undefined ? 'plain' : `--group-by ${by}`);
const dir = mkdtempSync(join(tmpdir(), 'svc-gitops-bench-groups-'));
const fileOf = (by: GroupBy | undefined) => join(dir, `${label(by).replace(/\W+/g, '-')}.json`);

function write(by: GroupBy | undefined): { ms: number; chars: number } {
  const started = performance.now();
  let chars = 0;
  const fd = fs.openSync(fileOf(by), 'w');
  for (const chunk of planJsonChunks(plan, { groupBy: by })) {
    chars += chunk.length;
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);
  return { ms: performance.now() - started, chars };
}

function read(by: GroupBy | undefined): number {
  const started = performance.now();
  const back = readPlanFile(fs, fileOf(by));
  const ms = performance.now() - started;
  if (back.id !== plan.id || back.actions.length !== plan.actions.length)
    throw new Error(`${label(by)}: the file read back is not the plan`);
  return ms;
}

try {
  const writes = new Map(VARIANTS.map((by) => [by, [] as number[]]));
  const reads = new Map(VARIANTS.map((by) => [by, [] as number[]]));
  const chars = new Map<GroupBy | undefined, number>();
  for (const by of VARIANTS) {
    chars.set(by, write(by).chars); // warm-up, and the size
    read(by);
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
    for (const by of order) writes.get(by)?.push(write(by).ms);
    for (const by of order) reads.get(by)?.push(read(by));
  }
  const groups = (by: GroupBy) => planGroups(plan.actions, by).length;
  console.log(
    `${sites} sites: ${plan.actions.length} actions; ${groups('item')} distinct changes, ${groups('site')} sites with actions`,
  );
  const plain = { chars: chars.get(undefined) ?? 0, write: median(writes.get(undefined) ?? []) };
  const plainRead = median(reads.get(undefined) ?? []);
  for (const by of ['item', 'site'] as const) {
    const size = chars.get(by) ?? 0;
    console.log(`  ${label(by)}`);
    console.log(
      `    size        ${(size / 1e6).toFixed(1)} M chars / ${(plain.chars / 1e6).toFixed(1)} M = ${(size / plain.chars).toFixed(2)}`,
    );
    console.log(
      `    write JSON  ${ratioText(median(writes.get(by) ?? []), plain.write)} (median of ${rounds})`,
    );
    console.log(
      `    read back   ${ratioText(median(reads.get(by) ?? []), plainRead)} (schema + groups check)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
