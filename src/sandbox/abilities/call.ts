import { canAccess, nsCode, type SandboxContext } from '../context.js';
import { KIND_NAMES, type KindName } from '../entries.js';
import type { ErrorItem } from '../executor.js';
import type { FleetSite, FleetUser } from '../fleet-types.js';
import type { Reply } from '../http-util.js';

/** One authorised ability call: the caller and its validated input. */
export interface AbilityCall {
  user: FleetUser;
  input: Record<string, unknown>;
}

/** A call of a single-site ability, whose site was resolved in the permission check. */
export interface SiteCall extends AbilityCall {
  site: FleetSite;
}

export type FleetHandler = (ctx: SandboxContext, call: AbilityCall) => Reply;
export type SiteHandler = (ctx: SandboxContext, call: SiteCall) => Reply;

export function notFoundMessage(idOrDomain: unknown): string {
  return typeof idOrDomain === 'number' || /^\d+$/.test(String(idOrDomain))
    ? `No site found with ID ${idOrDomain}.`
    : `No site found matching "${String(idOrDomain)}".`;
}

/**
 * Resolves `site_ids_or_domains` ([] or absent = every site the user may access). Unknown and
 * forbidden sites become `errors[]` items with `site_id` 0 and the identifier as sent.
 */
export function resolveSites(
  ctx: SandboxContext,
  user: FleetUser,
  ids: unknown,
  withSiteName: boolean,
): { sites: FleetSite[]; errors: ErrorItem[] } {
  const list = Array.isArray(ids) ? ids : [];
  if (list.length === 0) return { sites: ctx.store.sites().filter((s) => canAccess(user, s)), errors: [] };
  const sites: FleetSite[] = [];
  const seen = new Set<number>();
  const errors: ErrorItem[] = [];
  for (const id of list) {
    const site = ctx.store.resolve(id as string | number);
    const problem = !site
      ? { code: nsCode(ctx, 'site_not_found'), message: notFoundMessage(id) }
      : !canAccess(user, site)
        ? { code: nsCode(ctx, 'access_denied'), message: 'You do not have permission to access this site.' }
        : undefined;
    if (problem || !site) {
      const error: ErrorItem = {
        site_id: 0,
        site_url: String(id),
        type: 'site',
        slug: '',
        ...problem,
      } as ErrorItem;
      if (withSiteName) error.site_name = '';
      errors.push(reorder(error));
      continue;
    }
    if (!seen.has(site.id)) sites.push(site);
    seen.add(site.id);
  }
  sites.sort((a, b) => a.id - b.id);
  return { sites, errors };
}

/** Puts the fields of an error item in the documented order. */
function reorder(error: ErrorItem): ErrorItem {
  const { site_id, site_url, site_name, type, slug, code, message } = error;
  return site_name === undefined
    ? { site_id, site_url, type, slug, code, message }
    : { site_id, site_url, site_name, type, slug, code, message };
}

/**
 * The kinds a `types` input selects: absent → all four; `[]` → all four, or nothing when
 * `emptyMeansNothing` (get-site-updates / update-all in release 6.1).
 */
export function kindsFrom(types: unknown, emptyMeansNothing = false): KindName[] {
  if (!Array.isArray(types)) return [...KIND_NAMES];
  if (types.length === 0) return emptyMeansNothing ? [] : [...KIND_NAMES];
  return KIND_NAMES.filter((kind) => types.includes(kind));
}

export function slugSet(slugs: unknown): Set<string> | undefined {
  return Array.isArray(slugs) && slugs.length > 0 ? new Set(slugs.map(String)) : undefined;
}

export function pageOf<T>(items: readonly T[], page: number, perPage: number): T[] {
  const start = (page - 1) * perPage;
  return items.slice(start, start + perPage);
}
