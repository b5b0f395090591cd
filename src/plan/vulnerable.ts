import type { Plan } from '../types.js';

/**
 * The sites a plan lists as vulnerable with no fix released (`security.vulnerable`, `no-fix`),
 * ascending and each once: the verdict of `--fail-on-vulnerable`. Read from the plan the session
 * made, so the exit code and every view of the plan agree. Sites whose fix is pending but not
 * planned are not counted: a reviewed change can still plan that fix.
 */
export function vulnerableNoFixSites(plan: Pick<Plan, 'security'>): number[] {
  const sites = new Set<number>();
  for (const entry of plan.security?.vulnerable ?? []) {
    if (entry.fix !== 'no-fix') continue;
    for (const id of entry.site_ids) sites.add(id);
  }
  return [...sites].sort((a, b) => a - b);
}
