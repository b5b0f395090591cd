import { siteStatus } from '../abilities/read.js';
import type { SandboxContext } from '../context.js';
import { ok, type Reply, type SandboxRequest } from '../http-util.js';
import { param } from './params.js';

/** MainWP's REST `/sites` pages through its list-sites ability, whose `per_page` is at most 100. */
const MAX_PER_PAGE = 100;

/**
 * `GET /sites`: the site records as MainWP 6.1.2 sends them: string IDs, the flags as the
 * database strings `'0'`/`'1'`, `total` the number of sites. With `page` or `per_page` one page
 * (20 a page unless asked, at most 100) with the whole fleet's total; without either, every
 * site (MainWP's unpaged path, which `with_tags=false` takes).
 */
export function listSitesRest(ctx: SandboxContext, req: SandboxRequest): Reply {
  const all = ctx.store.sites();
  const page = positive(param(req, 'page'));
  const asked = positive(param(req, 'per_page'));
  const paged = page !== undefined || asked !== undefined;
  const perPage = Math.min(MAX_PER_PAGE, asked ?? 20);
  const start = ((page ?? 1) - 1) * perPage;
  const sites = paged ? all.slice(start, start + perPage) : all;
  const data = sites.map((site) => ({
    id: String(site.id),
    url: site.url,
    name: site.name,
    status: siteStatus(site),
    suspended: site.suspended ? '1' : '0',
    offline_check_result: site.offline ? '-1' : '1',
    client_id: String(site.clientId ?? 0),
    // Site-wide ignore flags, as the shipped site records carry them (dashboard-facts §5).
    is_ignoreCoreUpdates: site.flags.core ? '1' : '0',
    is_ignorePluginUpdates: site.flags.plugins ? '1' : '0',
    is_ignoreThemeUpdates: site.flags.themes ? '1' : '0',
  }));
  return ok({ success: 1, total: all.length, data });
}

function positive(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}
