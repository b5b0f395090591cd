import { planId } from '../../src/plan/index.js';
import type { Plan } from '../../src/types.js';
import { type CliOptions, cli } from '../helpers/cli.js';
import type { World } from './world.js';

/** Runs the CLI in process against a world's sandbox, config and memfs. */
export function run(w: World, argv: string[], options: CliOptions = {}) {
  const { env, ...rest } = options;
  return cli(argv, { env: { ...w.env, ...env }, fs: w.fs, cwd: w.cwd, ...rest });
}

/** Write abilities the sandbox saw: a refused apply must have sent none. */
export async function writesSent(w: World): Promise<number> {
  const stats = await w.stats();
  return Object.entries(stats.abilities)
    .filter(([name]) => /ignore-site-|set-ignored|run-updates/.test(name))
    .reduce((n, [, count]) => n + count, 0);
}

export function savePlan(w: World, plan: Plan, path = '/work/plan.json'): string {
  w.fs.writeFileSync(path, JSON.stringify(plan, null, 2));
  return path;
}

/** A plan edited on purpose and given a matching id again (as someone forging a plan would). */
export function reId(plan: Plan): Plan {
  const { id: _old, ...rest } = plan;
  return { ...rest, id: planId(rest) } as Plan;
}
