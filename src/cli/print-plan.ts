import { Option } from 'commander';
import { type GroupBy, planJsonChunks, planTextChunks, renderPlanMarkdown } from '../render/index.js';
import type { Plan } from '../types.js';
import { type CliContext, useColour } from './context.js';

export type PlanFormat = 'text' | 'markdown' | 'json';

/**
 * A plan on stdout as `plan` and `show` print it: text (colour on a terminal only), markdown or
 * JSON. `groupBy` orders the per-site detail of text and markdown (by site when absent); JSON
 * keeps its actions in their stated order (the id is a hash of it) and, when `groupBy` is given,
 * adds the `groups` section that presents them so. Text and JSON go out chunk by chunk, each
 * written once the stream has taken the last: a fleet's plan (75 MB of text at 100,000 sites) is
 * never all waiting in memory for a slow pipe.
 */
export async function printPlan(
  ctx: CliContext,
  plan: Plan,
  format: PlanFormat,
  groupBy: GroupBy | undefined,
): Promise<void> {
  if (format === 'markdown') {
    ctx.stdout.write(renderPlanMarkdown(plan, { groupBy: groupBy ?? 'site' }));
    return;
  }
  const chunks =
    format === 'json'
      ? planJsonChunks(plan, { groupBy })
      : planTextChunks(plan, { groupBy: groupBy ?? 'site', colour: useColour(ctx) });
  for (const chunk of chunks) {
    ctx.stdout.write(chunk);
    await ctx.stdout.drained?.();
  }
}

/** `--group-by` as plan, show and drift take it: no default, so JSON has groups only when asked. */
export function groupByOption(): Option {
  return new Option(
    '--group-by <what>',
    'detail by site (default) or by item; json adds a groups section (same plan id)',
  ).choices(['site', 'item']);
}
