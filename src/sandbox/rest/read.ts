import { siteStatus } from '../abilities/read.js';
import { nsCode, type SandboxContext } from '../context.js';
import { KIND_NAMES, type KindName, type UpdateEntry } from '../entries.js';
import type { FleetIgnore, FleetSite } from '../fleet-types.js';
import { errorReply, ok, type Reply, type SandboxRequest } from '../http-util.js';
import { idListParam, isSite, param, phpMap, restSite } from './params.js';
import { mapKindsFor, siteUpdateMap } from './site-map.js';

const STATUSES = ['any', 'connected', 'disconnected', 'suspended', 'available_update'];
const FLAT_CAP = 50;

/** `GET /updates`: the shipped flat, capped wrapper over list-updates-v1, or the spec's map. */
export function listAllUpdates(ctx: SandboxContext, req: SandboxRequest): Reply {
  const status = param(req, 'status');
  if (status !== undefined && !STATUSES.includes(String(status))) {
    return errorReply(400, nsCode(ctx, 'rest_invalid_param'), 'Invalid parameter(s): status', {
      data: { status: 400, params: { status: `status is not one of ${STATUSES.join(', ')}.` } },
    });
  }
  const include = idListParam(param(req, 'include'));
  const exclude = idListParam(param(req, 'exclude'));
  const sites = selectSites(ctx, include, status === undefined ? 'any' : String(status));
  // The flat, capped list is the wrapper over list-updates-v1, which exists only with the
  // abilities API; without it the shipped dashboard serves the spec's map (facts §6.2).
  return ctx.quirks.restListFlatCapped && ctx.surfaces.abilities
    ? flatList(ctx, req, sites, exclude)
    : mapList(ctx, req, sites, exclude);
}

function selectSites(ctx: SandboxContext, include: number[], status: string): FleetSite[] {
  const base =
    include.length > 0
      ? include.map((id) => ctx.store.site(id)).filter((s): s is FleetSite => !!s)
      : [...ctx.store.sites()];
  if (status === 'any') return base;
  if (status === 'available_update')
    return base.filter((site) => KIND_NAMES.some((k) => ctx.store.visible(site)[k].length > 0));
  return base.filter((site) => siteStatus(site) === status);
}

function flatList(ctx: SandboxContext, req: SandboxRequest, sites: FleetSite[], exclude: number[]): Reply {
  const type = param(req, 'type');
  let kinds: KindName[] = [...KIND_NAMES];
  if (type !== undefined && type !== '') {
    const kind = type === 'core' ? 'core' : (KIND_NAMES.find((k) => k === type) as KindName | undefined);
    const badType =
      kind === undefined && (ctx.quirks.restListTypeWpAll500 || (type !== 'wp' && type !== 'all'));
    if (badType) {
      return errorReply(
        500,
        'ability_invalid_input',
        `Ability "${ctx.ns}/list-updates-v1" has invalid input. Reason: input[types][0] is not one of core, plugins, themes, translations.`,
      );
    }
    if (kind) kinds = [kind];
    else if (type === 'wp') kinds = ['core'];
  }
  // `search` is ignored; per-site errors of `include` IDs are dropped; no paging beyond 50.
  const entries: UpdateEntry[] = [];
  for (const site of sites) {
    for (const kind of kinds) entries.push(...ctx.store.visible(site)[kind]);
    if (entries.length >= FLAT_CAP) break;
  }
  let list: UpdateEntry[] | Record<string, UpdateEntry> = entries.slice(0, FLAT_CAP);
  if (exclude.length > 0)
    list = ctx.quirks.restListExcludeByPosition
      ? unsetPositions(list, exclude)
      : list.filter((e) => !exclude.includes(e.site_id));
  return ok({ success: 1, data: list });
}

/** PHP `unset($list[$id])` for each excluded ID: a list with gaps serialises as an object. */
function unsetPositions(
  list: UpdateEntry[],
  positions: number[],
): UpdateEntry[] | Record<string, UpdateEntry> {
  const removed = new Set(positions.filter((p) => p >= 0 && p < list.length));
  if (removed.size === 0) return list;
  const kept: Record<string, UpdateEntry> = {};
  list.forEach((entry, index) => {
    if (!removed.has(index)) kept[String(index)] = entry;
  });
  const keys = Object.keys(kept);
  const sequential = keys.every((key, index) => key === String(index));
  return sequential ? Object.values(kept) : kept;
}

function mapList(ctx: SandboxContext, req: SandboxRequest, sites: FleetSite[], exclude: number[]): Reply {
  const kinds = mapKindsFor(param(req, 'type')) ?? [];
  const search = String(param(req, 'search') ?? '');
  const data: Record<string, unknown> = {};
  for (const site of sites) {
    if (exclude.includes(site.id)) continue;
    data[String(site.id)] = siteUpdateMap(ctx, site, kinds, search);
  }
  return ok({ success: 1, data: phpMap(ctx, data) });
}

/** `GET /updates/{id_or_domain}`: always the map shape; an unknown `type` gives `data: null`. */
export function listSiteUpdates(ctx: SandboxContext, req: SandboxRequest, idOrDomain: string): Reply {
  const site = restSite(ctx, idOrDomain);
  if (!isSite(site)) return site;
  const kinds = mapKindsFor(param(req, 'type'));
  if (!kinds) return ok({ success: 1, data: null });
  return ok({ success: 1, data: siteUpdateMap(ctx, site, kinds, String(param(req, 'search') ?? '')) });
}

/** `GET /updates/ignored` and `/updates/{id_or_domain}/ignored`. */
export function listIgnoredRest(ctx: SandboxContext, req: SandboxRequest, idOrDomain?: string): Reply {
  let site: FleetSite | undefined;
  if (idOrDomain !== undefined) {
    const found = restSite(ctx, idOrDomain);
    if (!isSite(found)) return found;
    site = found;
  }
  // The 500 comes from the wrapper over list-ignored-updates-v1 (it sends a `scope` key the
  // ability's schema rejects); without the abilities API the dashboard serves the plain listing.
  if (ctx.quirks.restIgnoredListing500 && ctx.surfaces.abilities) {
    return errorReply(
      500,
      'ability_invalid_input',
      `Ability "${ctx.ns}/list-ignored-updates-v1" has invalid input. Reason: scope is not a valid property of Object.`,
    );
  }
  const type = String(param(req, 'type') ?? 'all');
  const search = String(param(req, 'search') ?? '').toLowerCase();
  const data: Record<string, unknown> = {};
  for (const kind of ['plugins', 'themes'] as const) {
    if (type !== 'all' && type !== kind) continue;
    const global = ctx.store.global[kind];
    const own = site ? site.ignores[kind] : [];
    const merged: FleetIgnore[] = !site
      ? global
      : ctx.quirks.restSiteIgnoredOmitsGlobal
        ? own
        : [...own, ...global];
    const map: Record<string, { Name: string; ignored_versions: string[] }> = {};
    for (const entry of merged) {
      if (search !== '' && !entry.name.toLowerCase().includes(search)) continue;
      map[entry.slug] = {
        Name: entry.name,
        ignored_versions: entry.versions === 'all' ? ['all_versions'] : entry.versions,
      };
    }
    if (Object.keys(map).length > 0) data[kind] = phpListOrMap(merged, map);
  }
  return ok({ success: 1, data: phpMap(ctx, data) });
}

/**
 * PHP's json_encode writes an array whose keys are exactly 0, 1, … in order as a JSON list: so a
 * site whose only ignores are REST per-slug entries stored under list indices answers `[{…}]`.
 */
function phpListOrMap<T>(stored: readonly FleetIgnore[], map: Record<string, T>): Record<string, T> | T[] {
  const keys = stored.map((entry) => entry.slug);
  const isList = keys.length === Object.keys(map).length && keys.every((key, index) => key === String(index));
  return isList ? keys.map((key) => map[key] as T) : map;
}
