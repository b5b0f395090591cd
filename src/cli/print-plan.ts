import { planJsonChunks, planTextChunks, renderPlanMarkdown } from '../render/index.js';
import type { Plan } from '../types.js';
import { type CliContext, useColour } from './context.js';

export type PlanFormat = 'text' | 'markdown' | 'json';

/**
 * A plan on stdout as `plan` and `show` print it: text (colour on a terminal only), markdown or
 * JSON. `groupBy` orders the per-site detail of text and markdown; the JSON plan keeps its own
 * stated order (its id is a hash of it), and its readers group as they need.
 */
export function printPlan(ctx: CliContext, plan: Plan, format: PlanFormat, groupBy: 'site' | 'item'): void {
  if (format === 'json') {
    for (const chunk of planJsonChunks(plan)) ctx.stdout.write(chunk);
  } else if (format === 'markdown') {
    ctx.stdout.write(renderPlanMarkdown(plan, { groupBy }));
  } else {
    const colour = useColour(ctx);
    for (const chunk of planTextChunks(plan, { groupBy, colour })) ctx.stdout.write(chunk);
  }
}
