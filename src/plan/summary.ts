/** Counts of a plan's actions; `sites` is the number of distinct sites with any action. */
import type { Action, PlanSummary } from '../types.js';

export function summarise(actions: readonly Action[]): PlanSummary {
  const summary: PlanSummary = { ignore: 0, unignore: 0, update: 0, sites: 0, high_risk: 0 };
  const sites = new Set<number>();
  for (const action of actions) {
    summary[action.op]++;
    if (action.risk === 'high') summary.high_risk++;
    sites.add(action.site_id);
  }
  summary.sites = sites.size;
  return summary;
}
