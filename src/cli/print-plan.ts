import { planJsonChunks, planTextChunks, renderPlanMarkdown } from '../render/index.js';
import type { Plan } from '../types.js';
import { type CliContext, useColour } from './context.js';

export type PlanFormat = 'text' | 'markdown' | 'json';

/**
 * A plan on stdout as `plan` and `show` print it: text (colour on a terminal only), markdown or
 * JSON. `groupBy` orders the per-site detail of text and markdown; the JSON plan keeps its own
 * stated order (its id is a hash of it), and its readers group as they need. Text and JSON go
 * out chunk by chunk, each written once the stream has taken the last: a fleet's plan (75 MB of
 * text at 100,000 sites) is never all waiting in memory for a slow pipe.
 */
export async function printPlan(
  ctx: CliContext,
  plan: Plan,
  format: PlanFormat,
  groupBy: 'site' | 'item',
): Promise<void> {
  if (format === 'markdown') {
    ctx.stdout.write(renderPlanMarkdown(plan, { groupBy }));
    return;
  }
  const chunks =
    format === 'json' ? planJsonChunks(plan) : planTextChunks(plan, { groupBy, colour: useColour(ctx) });
  for (const chunk of chunks) {
    ctx.stdout.write(chunk);
    await ctx.stdout.drained?.();
  }
}
