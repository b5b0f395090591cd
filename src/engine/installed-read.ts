import type { DashboardClient } from '../dashboard/index.js';
import { compileSelection } from '../plan/index.js';
import { safeText } from '../render/index.js';
import type { DesiredState, LiveState } from '../types.js';

/**
 * With `security.installed`: the plugins and themes installed on the sites the plan covers (the
 * managed sites, or the targeted ones, that the read could report on) are read site by site
 * into `read.live.installed`, for the planner to judge those without a pending update. The
 * only reads are `get-site-plugins-v1` and `get-site-themes-v1`, one per site each: no listing
 * covers the fleet. A dashboard without them, or a site it answers about with an error, is
 * said in a warning: those versions are not judged.
 */
export async function readInstalledForPlan(
  client: Pick<DashboardClient, 'readInstalled'>,
  desired: DesiredState,
  read: { live: LiveState; targetSiteIds?: number[] },
  options: { signal?: AbortSignal | undefined; onWarning?: ((message: string) => void) | undefined },
): Promise<void> {
  if (!desired.security?.installed) return;
  const { live } = read;
  const selects = compileSelection(desired.sites);
  const targeted = read.targetSiteIds && new Set(read.targetSiteIds);
  const unreadable = new Set(live.unreadable.map((site) => site.siteId));
  const siteIds = live.sites
    .filter(
      (site) =>
        site.status === 'connected' &&
        selects(site) &&
        (!targeted || targeted.has(site.id)) &&
        !unreadable.has(site.id),
    )
    .map((site) => site.id);
  const found = await client.readInstalled(siteIds, options.signal ? { signal: options.signal } : {});
  if (!found) {
    options.onWarning?.(
      'security.installed: the dashboard cannot list installed plugins and themes (get-site-plugins-v1, get-site-themes-v1); only the versions of pending updates are judged',
    );
    return;
  }
  const [first] = found.failed;
  if (first) {
    options.onWarning?.(
      `security.installed: the installed items of ${found.failed.length} site(s) could not be read (first: site ${first.siteId}: ${safeText(first.message)}); their versions without a pending update are not judged`,
    );
  }
  live.installed = found.items;
}
