import { vulnerableNoFixSites } from '../index.js';
import type { Plan } from '../types.js';
import type { CliContext } from './context.js';

const SHOWN_SITES = 10;

/** `--fail-on-vulnerable` of `plan` and `drift`: one description, so both say the same. */
export const FAIL_ON_VULNERABLE_HELP =
  'exit 4 when the plan lists sites vulnerable with no fix (an error or a halted rollout exits first; outranks exit 2; also: failOnVulnerable setting, SVC_FAIL_ON_VULNERABLE)';

/**
 * True when `--fail-on-vulnerable` asks for exit 4 on this plan; says so on stderr (stdout may
 * be the plan's JSON). The sites come from the plan's own `security` section.
 */
export function failsOnVulnerable(ctx: CliContext, plan: Pick<Plan, 'security'>, enabled?: boolean): boolean {
  if (!enabled) return false;
  const sites = vulnerableNoFixSites(plan);
  if (sites.length === 0) return false;
  // A fleet may hold thousands: the first few name it, the plan lists them all.
  const shown = sites.slice(0, SHOWN_SITES).join(', ') + (sites.length > SHOWN_SITES ? ', …' : '');
  const plural = sites.length === 1 ? '' : 's';
  ctx.stderr.write(
    `svc-gitops: --fail-on-vulnerable: ${sites.length} site${plural} vulnerable with no fix (site${plural} ${shown})\n`,
  );
  return true;
}
