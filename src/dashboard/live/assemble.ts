import { SvcError } from '../../errors.js';
import type {
  BrokenIgnore,
  DashboardCapabilities,
  LiveIgnore,
  LiveState,
  PendingUpdate,
  Site,
  UnreadableSite,
} from '../../types.js';
import type { WireError } from '../wire/common.js';
import type { WireUpdate } from '../wire/reads.js';
import { checkListings } from './invariants.js';

export interface LiveParts {
  dashboardUrl: string;
  sites: Site[];
  updates: WireUpdate[];
  ignores: LiveIgnore[];
  errors: WireError[];
  /** Broken entries of readable sites' ignored listings (broken-ignores.ts). */
  broken?: readonly BrokenIgnore[];
  capabilities: DashboardCapabilities;
  /** When set, only these sites are reported; asked-for sites the dashboard lacks are unreadable. */
  siteIds?: number[] | undefined;
}

const KIND_ORDER = { core: 0, plugin: 1, theme: 2, translation: 3 } as const;

/**
 * Builds the LiveState in a deterministic order (site id, kind, slug). Sites named in `errors[]`
 * become unreadable (first error wins); translations are kept once per site and slug, the lowest
 * move (the dashboard lists one entry per language and cannot update them separately).
 */
export function assembleLive(parts: LiveParts): LiveState {
  checkListings(parts.sites, parts.updates, parts.ignores);
  const wanted = parts.siteIds ? new Set(parts.siteIds) : undefined;
  const keep = (id: number) => wanted === undefined || wanted.has(id);
  const sites = wanted ? parts.sites.filter((s) => keep(s.id)) : parts.sites.slice();
  if (sites.some((site, index) => index > 0 && (sites[index - 1] as Site).id > site.id))
    sites.sort((a, b) => a.id - b.id);
  const urlOf =
    parts.errors.length > 0 || wanted ? new Map(sites.map((s) => [s.id, s.url])) : new Map<number, string>();

  const unreadable = new Map<number, UnreadableSite>();
  for (const error of parts.errors) {
    if (!keep(error.siteId) || unreadable.has(error.siteId)) continue;
    unreadable.set(error.siteId, {
      siteId: error.siteId,
      url: urlOf.get(error.siteId) ?? error.siteRef,
      code: error.code,
      message: error.message,
    });
  }
  for (const id of wanted ?? []) {
    if (!urlOf.has(id) && !unreadable.has(id)) {
      unreadable.set(id, {
        siteId: id,
        url: String(id),
        code: 'site_not_found',
        message: `No site found with ID ${id}.`,
      });
    }
  }

  // Entries are already PendingUpdate-shaped. In (site, kind, slug) order, equal neighbours are
  // either translations (one entry per language: the lowest move is kept, whatever order the
  // languages were listed in) or the trace of a listing that shifted while it was paged (an
  // item read twice means another was missed).
  const sorted = sortBySiteRuns(wanted ? parts.updates.filter((u) => keep(u.siteId)) : parts.updates);
  // The sorted list itself, until an entry is dropped: then the entries kept so far are copied.
  let pending: PendingUpdate[] | undefined;
  let last: PendingUpdate | undefined;
  for (let i = 0; i < sorted.length; i++) {
    const u = sorted[i] as PendingUpdate;
    if (last && last.siteId === u.siteId && last.kind === u.kind && last.slug === u.slug) {
      if (u.kind !== 'translation')
        throw shifted(`update ${u.kind} ${u.slug} of site ${u.siteId} was listed twice`);
      pending ??= sorted.slice(0, i);
      if (lowerMove(u, last)) {
        pending[pending.length - 1] = u;
        last = u;
      }
      continue;
    }
    pending?.push(u);
    last = u;
  }
  sites.forEach((site, index) => {
    if (index > 0 && sites[index - 1]?.id === site.id) throw shifted(`site ${site.id} was listed twice`);
  });
  const ignores = sortBySiteRuns(wanted ? parts.ignores.filter((i) => keep(i.siteId)) : parts.ignores);
  const broken = (parts.broken ?? []).filter((b) => keep(b.siteId) && !unreadable.has(b.siteId));
  return {
    dashboardUrl: parts.dashboardUrl,
    sites,
    pending: pending ?? sorted,
    ignores,
    unreadable: [...unreadable.values()].sort((a, b) => a.siteId - b.siteId),
    // Absent when none, so a live state without broken entries is as it always was.
    ...(broken.length > 0 ? { broken: broken.slice().sort((a, b) => a.siteId - b.siteId) } : {}),
    capabilities: parts.capabilities,
  };
}

/**
 * The same order as a full sort by (site, kind, slug), cheaper for the usual input: the
 * dashboard lists sites in ascending order with each site's items together, so only each site's
 * short run needs sorting. Any other input gets the full (stable) sort.
 */
function sortBySiteRuns<T extends { siteId: number; kind: keyof typeof KIND_ORDER; slug: string }>(
  items: T[],
): T[] {
  // Usually the list is in order already: then it is its own answer, not copied.
  let ordered = true;
  for (let i = 1; i < items.length && ordered; i++) ordered = byItem(items[i - 1] as T, items[i] as T) <= 0;
  if (ordered) return items;
  // A copy of the whole list with each site's run sorted in place: no list grown item by item.
  const out = items.slice();
  let start = 0;
  let inOrder = true;
  for (let i = 1; i <= out.length; i++) {
    const previous = out[i - 1] as T;
    const current = out[i];
    if (current !== undefined && current.siteId === previous.siteId) {
      if (inOrder && byItem(previous, current) > 0) inOrder = false;
      continue;
    }
    if (current !== undefined && current.siteId < previous.siteId) return out.sort(byItem);
    if (!inOrder) {
      const run = out.slice(start, i).sort(byItem);
      for (let j = 0; j < run.length; j++) out[start + j] = run[j] as T;
    }
    start = i;
    inOrder = true;
  }
  return out;
}

/** Moves compared by from, to, then name, as code units: a total order, so the choice is fixed. */
function lowerMove(a: PendingUpdate, b: PendingUpdate): boolean {
  if (a.from !== b.from) return a.from < b.from;
  if (a.to !== b.to) return a.to < b.to;
  return a.name < b.name;
}

/** A listing that moved while it was paged: an item read twice means another was missed. */
export function shifted(what: string): SvcError {
  return new SvcError('INCOMPLETE_READ', `the dashboard's listing changed while it was read: ${what}`, {
    hint: 'Run again; if it keeps happening, something is changing the dashboard during the read.',
  });
}

function byItem(a: { siteId: number; kind: keyof typeof KIND_ORDER; slug: string }, b: typeof a): number {
  return (
    a.siteId - b.siteId ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)
  );
}
