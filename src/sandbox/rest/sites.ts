import { siteStatus } from '../abilities/read.js';
import type { SandboxContext } from '../context.js';
import { ok, type Reply } from '../http-util.js';

/**
 * `GET /sites`: every site with the fields a REST-only client needs to address it. The spec
 * does not show this controller's shape; flags come as the database strings `'0'`/`'1'`.
 */
export function listSitesRest(ctx: SandboxContext): Reply {
  const data = ctx.store.sites().map((site) => ({
    id: site.id,
    url: site.url,
    name: site.name,
    status: siteStatus(site),
    suspended: site.suspended ? '1' : '0',
    offline_check_result: site.offline ? '-1' : '1',
    client_id: site.clientId,
    // Site-wide ignore flags, as the shipped site records carry them (dashboard-facts §5).
    is_ignoreCoreUpdates: site.flags.core ? '1' : '0',
    is_ignorePluginUpdates: site.flags.plugins ? '1' : '0',
    is_ignoreThemeUpdates: site.flags.themes ? '1' : '0',
  }));
  return ok({ success: 1, data });
}
