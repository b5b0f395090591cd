/** Counts of a plan's actions; `sites` is the number of distinct sites with any action. */
import type { Action, PlanSummary } from '../types.js';

export function summarise(actions: readonly Action[]): PlanSummary {
  return {
    ignore: actions.filter((action) => action.op === 'ignore').length,
    unignore: actions.filter((action) => action.op === 'unignore').length,
    update: actions.filter((action) => action.op === 'update').length,
    sites: new Set(actions.map((action) => action.site_id)).size,
    high_risk: actions.filter((action) => action.risk === 'high').length,
  };
}
