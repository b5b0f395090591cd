import type { SandboxContext } from '../context.js';
import { errorReply, ok, type Reply, type SandboxRequest } from '../http-util.js';
import { listParam, param, restSite } from './params.js';
import { siteRecord } from './site-record.js';

/** MainWP's REST `/sites` pages through its list-sites ability, whose `per_page` is at most 100. */
const MAX_PER_PAGE = 100;
/** What MainWP 6.1.2 passes to `list-sites-v1` when the REST client asks no `per_page`. */
const DEFAULT_PER_PAGE = 20;

/**
 * `GET /sites`: the site records (siteRecord) and `total`, the fleet's size. MainWP 6.1.2 on
 * WordPress ≥ 6.9 (the abilities registered, blocked routes included) pages through
 * `list-sites-v1`: `page`, `per_page` (20 unless asked, at most 100). `with_tags=false` and
 * dashboards without the abilities take the unpaged path: every site. `_fields` keeps only the
 * record fields it names, as WordPress's response filter does.
 */
export function listSitesRest(ctx: SandboxContext, req: SandboxRequest): Reply {
  const all = ctx.store.sites();
  const withTags = String(param(req, 'with_tags') ?? 'true') !== 'false';
  const paged = ctx.surfaces.abilities && withTags;
  const page = positive(param(req, 'page')) ?? 1;
  const perPage = Math.min(MAX_PER_PAGE, positive(param(req, 'per_page')) ?? DEFAULT_PER_PAGE);
  const start = (page - 1) * perPage;
  const sites = paged ? all.slice(start, start + perPage) : all;
  const fields = listParam(param(req, '_fields'));
  const data = sites.map((site) => pick(siteRecord(site), fields));
  return ok({ success: 1, total: all.length, data });
}

function pick(record: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  if (fields.length === 0) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => fields.includes(key)));
}

function positive(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * `GET /sites/{id_or_domain}`: `{data: record}` (no `success`). MainWP 6.1.2 reads it through
 * `get-site-v1`, whose permission check rejects an unknown site, and WordPress turns that into
 * 500 `ability_invalid_permissions` (quirk `restSiteAbilityPermission500`); otherwise the
 * controller's own 404.
 */
export function getSiteRest(ctx: SandboxContext, idOrDomain: string): Reply {
  if (ctx.surfaces.abilities && ctx.quirks.restSiteAbilityPermission500 && !ctx.store.resolve(idOrDomain)) {
    return errorReply(
      500,
      'ability_invalid_permissions',
      `Ability "${ctx.ns}/get-site-v1" does not have necessary permission.`,
    );
  }
  const site = restSite(ctx, idOrDomain);
  if (!('url' in site)) return site;
  return ok({ data: siteRecord(site) });
}
