import { SvcError } from '../../errors.js';
import type { DashboardCapabilities, LiveState } from '../../types.js';
import type { AbilityCaller } from '../abilities/call.js';
import type { ReadLiveOptions } from '../client.js';
import type { WireError } from '../wire/common.js';
import { parseIgnoredListing, parseSitesPage, parseUpdatesPage, type SiteFlags } from '../wire/reads.js';
import { assembleLive } from './assemble.js';
import { classifyIgnores, refuseRepeatedIgnores } from './origins.js';
import { readAllPages } from './paging.js';

/** Defaults of the shipped schemas, used only when a catalogue declares paging without a maximum. */
const FALLBACK_PER_PAGE = {
  'list-sites-v1': 20,
  'list-updates-v1': 50,
  'list-ignored-updates-v1': 50,
} as const;
type Listing = keyof typeof FALLBACK_PER_PAGE;

/**
 * The live state through the abilities API in the fewest requests: sites (list-sites-v1), pending
 * updates (list-updates-v1) and ignores (list-ignored-updates-v1) are read side by side, each
 * paged at the largest `per_page` its schema allows, and only where the schema declares paging.
 */
export async function readLiveViaAbilities(
  caller: AbilityCaller,
  dashboardUrl: string,
  capabilities: DashboardCapabilities,
  /** Page readers per listing: the transport's concurrency. */
  workers: number,
  options: ReadLiveOptions = {},
): Promise<LiveState> {
  const { signal, siteIds } = options;
  const progress = createProgress(options.onProgress);
  const flags = new Map<number, SiteFlags>();
  const [sites, updates, ignored] = await Promise.all([
    readListing(
      caller,
      'list-sites-v1',
      {},
      signal,
      progress.track('sites'),
      (body, where) => {
        const page = parseSitesPage(body, where);
        for (const [id, siteFlags] of page.flags) flags.set(id, siteFlags);
        return { items: page.sites, total: page.total, errors: [] };
      },
      workers,
    ),
    readListing(
      caller,
      'list-updates-v1',
      siteIds && siteIds.length > 0 && caller.declares('list-updates-v1', 'site_ids_or_domains')
        ? { site_ids_or_domains: siteIds }
        : {},
      signal,
      progress.track('updates'),
      (body, where) => {
        const page = parseUpdatesPage(body, where);
        return { items: page.updates, total: page.total, errors: page.errors };
      },
      workers,
    ),
    // Always the whole listing: the global-ignore verdict must not depend on the sites asked for.
    readListing(
      caller,
      'list-ignored-updates-v1',
      {},
      signal,
      progress.track('ignores'),
      (body, where) => {
        const listing = parseIgnoredListing(body, where);
        return {
          items: listing.ignored,
          total: listing.total ?? listing.ignored.length,
          errors: listing.errors,
        };
      },
      workers,
    ),
  ]);
  const listedSites = new Set(sites.items.map((site) => site.id));
  refuseRepeatedIgnores(ignored.items, listedSites);
  return assembleLive({
    dashboardUrl,
    sites: sites.items,
    updates: updates.items,
    ignores: classifyIgnores(ignored.items, flags, listedSites),
    errors: [...updates.errors, ...ignored.errors],
    capabilities,
    siteIds,
  });
}

interface ParsedPage<T> {
  items: T[];
  total: number;
  errors: WireError[];
}

async function readListing<T>(
  caller: AbilityCaller,
  ability: Listing,
  input: Record<string, unknown>,
  signal: AbortSignal | undefined,
  onPage: (done: number, pages: number) => void,
  parse: (body: Awaited<ReturnType<AbilityCaller['call']>>, where: string) => ParsedPage<T>,
  workers: number,
): Promise<{ items: T[]; errors: WireError[] }> {
  const where = `ability ${caller.info(ability)?.name ?? ability}`;
  const paged = caller.declares(ability, 'page') && caller.declares(ability, 'per_page');
  if (!paged) {
    const page = parse(await caller.call(ability, input, signal), where);
    // One answer holds the whole listing: the items must be all the total it reports.
    if (page.items.length !== page.total) {
      throw new SvcError(
        'INCOMPLETE_READ',
        `${where}: the listing holds ${page.items.length} items but reports a total of ${page.total}`,
        {
          hint: 'The dashboard dropped items or changed while it was read; run again.',
          details: { what: where },
        },
      );
    }
    onPage(1, 1);
    return { items: page.items, errors: page.errors };
  }
  const perPage = caller.info(ability)?.properties.get('per_page')?.maximum ?? FALLBACK_PER_PAGE[ability];
  const errors: WireError[] = [];
  const items = await readAllPages(
    where,
    perPage,
    async (page) => {
      const parsed = parse(await caller.call(ability, { ...input, page, per_page: perPage }, signal), where);
      // Site errors repeat on every page; the assembler keeps the first per site.
      errors.push(...parsed.errors);
      return parsed;
    },
    onPage,
    workers,
  );
  return { items, errors };
}

/** Sums page progress over the three listings once each knows its page count. */
function createProgress(report: ReadLiveOptions['onProgress']) {
  const state = new Map<string, { done: number; pages: number }>();
  return {
    track(name: string) {
      return (done: number, pages: number) => {
        state.set(name, { done, pages });
        if (!report) return;
        let sumDone = 0;
        let sumPages = 0;
        for (const s of state.values()) {
          sumDone += s.done;
          sumPages += s.pages;
        }
        report({ done: sumDone, total: state.size === 3 ? sumPages : undefined });
      };
    },
  };
}
