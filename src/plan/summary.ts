/** Counts of a plan's actions; `sites` is the number of distinct sites with any action. */
import type { Action, PlanSummary } from '../types.js';

export function summarise(actions: readonly Action[]): PlanSummary {
  const summary: PlanSummary = { ignore: 0, unignore: 0, update: 0, sites: 0, high_risk: 0 };
  const sites = new Set<number>();
  // A plan lists each site's actions together (per operation): a site is added once per run.
  let last = Number.NaN;
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i] as Action;
    const { op } = action;
    // Named counters, not summary[op]: one property each, not a lookup by a changing key.
    if (op === 'update') summary.update++;
    else if (op === 'ignore') summary.ignore++;
    else if (op === 'unignore') summary.unignore++;
    else summary[op]++;
    if (action.risk === 'high') summary.high_risk++;
    const siteId = action.site_id;
    if (siteId !== last) {
      sites.add(siteId);
      last = siteId;
    }
  }
  summary.sites = sites.size;
  return summary;
}
