import type { DashboardCapabilities, LiveState, Site } from '../../types.js';
import type { AbilityCaller } from '../abilities/call.js';
import type { ReadLiveOptions } from '../client.js';
import type { WireError } from '../wire/common.js';
import {
  parseIgnoredListing,
  parseSitesPage,
  parseUpdatesPage,
  type SiteFlags,
  type WireIgnore,
  type WireUpdate,
} from '../wire/reads.js';
import { StringPool } from '../wire/string-pool.js';
import { assembleLive } from './assemble.js';
import { classifyReadable, type IgnoresRead, readAroundBrokenEntries } from './broken-ignores.js';
import { readGroups, withGroups } from './groups.js';
import { type Listing, type PageParser, type Reader, readListing } from './listing.js';
import { needsWholeListing } from './origins.js';
import { createReadProgress, type ReadProgressTracker } from './read-progress.js';
import type { RestSiteListing } from './rest-site-listing.js';
import { SiteFeed } from './site-feed.js';
import { readUpdateChunks } from './update-chunks.js';

const SITE_KEY = 'site_ids_or_domains';

/**
 * The live state through the abilities API in the fewest requests. Sites (list-sites-v1), pending
 * updates (list-updates-v1) and ignores (list-ignored-updates-v1) are read side by side, paged at
 * the largest `per_page` each schema allows and only where it declares paging. Lists of site IDs
 * travel in the query split so every request line fits a web server (splitForQuery). The
 * unpaged ignored listing is read in site pieces once the site listing is in, so no response
 * grows with the fleet. With `siteIds`/`selectSites` only those sites' updates are read, and
 * only their ignores where the listing can be filtered and their entries can be judged alone
 * (needsWholeListing); otherwise the whole ignored listing is read for a correct verdict.
 */
export async function readLiveViaAbilities(
  caller: AbilityCaller,
  dashboardUrl: string,
  capabilities: DashboardCapabilities,
  /** Page readers per listing (the transport's concurrency) and the request timeout. */
  limits: { workers: number; timeoutMs: number },
  options: ReadLiveOptions = {},
  /** The site listing read from REST `GET /sites` (with a REST key); else list-sites-v1 is read. */
  restListing?: Promise<RestSiteListing>,
): Promise<LiveState> {
  const { signal } = options;
  const { groups } = options;
  const progress = createReadProgress(options.onProgress, [
    'sites',
    'updates',
    'ignores',
    ...(groups?.tags ? ['tags'] : []),
    ...(groups?.clients ? ['clients'] : []),
  ]);
  // One pool for the read: every page's repeated texts (slugs, names, versions) kept once.
  const pool = new StringPool();
  const read = { caller, signal, workers: limits.workers, timeoutMs: limits.timeoutMs, progress, pool };
  const flags = new Map<number, SiteFlags>();
  // The whole fleet's updates (all sites, or selectSites picking all) are read in chunks of the
  // sites as their listing pages arrive.
  const fleetFeed = options.siteIds ? undefined : new SiteFeed();
  const takeSites = (sites: Site[], pageFlags: Map<number, SiteFlags>, total: number) => {
    for (const [id, siteFlags] of pageFlags) flags.set(id, siteFlags);
    fleetFeed?.expect(total);
    fleetFeed?.push(sites.map((site) => site.id));
    progress.addSites(sites.length);
  };
  const sitesRead = restListing
    ? readRestSites(restListing, progress, takeSites)
    : readListing(read, 'list-sites-v1', {}, 'sites', (body, where) => {
        const page = parseSitesPage(body, where);
        takeSites(page.sites, page.flags, page.total);
        return { items: page.sites, total: page.total, errors: [] };
      });
  if (fleetFeed)
    void sitesRead.then(
      () => fleetFeed.end(),
      (error: unknown) => fleetFeed.fail(error),
    );
  // The sites whose updates and ignores are wanted: known now, after the site listing, or all.
  const targets: Promise<number[] | undefined> = options.siteIds
    ? Promise.resolve(options.siteIds)
    : options.selectSites
      ? sitesRead.then(({ items }) => pickTargets(items, options.selectSites))
      : Promise.resolve(undefined);
  const [sites, updates, ignored, wanted, membership] = await Promise.all([
    sitesRead,
    targets.then((ids) => readUpdates(read, ids, fleetFeed)),
    readIgnores(read, sitesRead, targets),
    targets,
    groups ? readGroups(read, groups) : undefined,
  ]);
  const listedSites = new Set(sites.items.map((site) => site.id));
  const picked = wanted && new Set(wanted);
  // A read restricted by selectSites reports every listed site, and ignores for the picked ones.
  const siteFlags = picked ? new Map([...flags].filter(([id]) => picked.has(id))) : flags;
  // A global ignore is listed on every site whose listing was read; a site whose listing is
  // broken (broken-ignores.ts) lists nothing, so it cannot count against that.
  const readSites = withoutSites(listedSites, ignored.errors);
  const ignores = classifyReadable(ignored.items, siteFlags, readSites, ignored.broken);
  const live = assembleLive({
    dashboardUrl,
    sites: sites.items,
    updates: updates.items,
    ignores: picked ? ignores.filter((i) => picked.has(i.siteId)) : ignores,
    errors: [...updates.errors, ...ignored.errors],
    broken: ignored.broken,
    capabilities,
    siteIds: options.siteIds,
  });
  return membership ? withGroups(live, membership) : live;
}

/** The REST site listing as the sites stage of the read: one request, counted as one. */
async function readRestSites(
  listing: Promise<RestSiteListing>,
  progress: ReadProgressTracker,
  take: (sites: Site[], flags: Map<number, SiteFlags>, total: number) => void,
): Promise<{ items: Site[] }> {
  progress.expect('sites', 1);
  const { sites, flags } = await listing;
  take(sites, flags, sites.length);
  progress.done('sites');
  return { items: sites };
}

function pickTargets(sites: Site[], select: ReadLiveOptions['selectSites']): number[] | undefined {
  const ids = select?.(sites);
  // Every site picked: the unfiltered listings are the cheaper read.
  return ids && ids.length < sites.length ? ids : undefined;
}

/**
 * Pending updates: of the given sites, or (undefined) of the whole fleet as the site listing
 * feeds it; in site chunks wherever the listing filters by site (readUpdateChunks).
 */
async function readUpdates(read: Reader, siteIds: number[] | undefined, fleetFeed: SiteFeed | undefined) {
  const parse: PageParser<WireUpdate> = (body, where) => {
    const page = parseUpdatesPage(body, where, read.pool);
    return { items: page.updates, total: page.total, errors: page.errors };
  };
  const feed = siteIds ? SiteFeed.of(siteIds) : fleetFeed;
  if (!feed || !read.caller.declares('list-updates-v1', SITE_KEY))
    return readListing(read, 'list-updates-v1', {}, 'updates', parse);
  return readUpdateChunks(read, feed, parse);
}

const ignoresParser =
  (pool: StringPool): PageParser<WireIgnore> =>
  (body, where) => {
    const listing = parseIgnoredListing(body, where, pool);
    return { items: listing.ignored, total: listing.total ?? listing.ignored.length, errors: listing.errors };
  };

/**
 * The ignored listing: paged → every page (it has no site filter in the spec); unpaged with a
 * site filter → pieces of the listed (or targeted) sites; unpaged without one → one request.
 */
async function readIgnores(
  read: Reader,
  sitesRead: Promise<{ items: Site[] }>,
  targets: Promise<number[] | undefined>,
): Promise<IgnoresRead<WireIgnore>> {
  const ability = 'list-ignored-updates-v1';
  const { caller } = read;
  const parseIgnores = ignoresParser(read.pool);
  const paged = caller.declares(ability, 'page') && caller.declares(ability, 'per_page');
  if (paged || !caller.declares(ability, SITE_KEY))
    return { ...(await readListing(read, ability, {}, 'ignores', parseIgnores)), broken: [] };
  const wanted = await targets;
  if (wanted) {
    if (wanted.length === 0) {
      read.progress.expect('ignores', 0);
      return { items: [], errors: [], broken: [] };
    }
    const own = await readPieces(
      read,
      ability,
      caller.splitForQuery(ability, {}, SITE_KEY, wanted),
      'ignores',
      parseIgnores,
    );
    if (!needsWholeListing(own.items)) return own;
    // Some entry may be global: only the whole listing says whether it is on every site.
    const picked = new Set(wanted);
    const others = (await sitesRead).items.map((s) => s.id).filter((id) => !picked.has(id));
    const rest = await readPieces(
      read,
      ability,
      caller.splitForQuery(ability, {}, SITE_KEY, others),
      'ignores',
      parseIgnores,
    );
    return {
      items: [...own.items, ...rest.items],
      errors: [...own.errors, ...rest.errors],
      broken: [...own.broken, ...rest.broken],
    };
  }
  const all = (await sitesRead).items.map((s) => s.id);
  return readPieces(read, ability, caller.splitForQuery(ability, {}, SITE_KEY, all), 'ignores', parseIgnores);
}

/** Reads one listing per piece of site IDs (each complete on its own), in piece order. */
async function readPieces<T>(
  read: Reader,
  ability: Listing,
  pieces: unknown[][],
  stage: string,
  parse: PageParser<T>,
): Promise<IgnoresRead<T>> {
  const paged = read.caller.declares(ability, 'page') && read.caller.declares(ability, 'per_page');
  if (!paged) read.progress.expect(stage, pieces.length);
  const byKind = read.caller.declares(ability, 'types');
  // A piece whose listing holds a broken entry is read again site by site, and a broken site
  // kind by kind where the listing filters by type (broken-ignores.ts).
  const results = await Promise.all(
    pieces.map((piece) =>
      readAroundBrokenEntries(
        piece,
        (sites, types) =>
          readListing(read, ability, { [SITE_KEY]: sites, ...(types ? { types } : {}) }, stage, parse, paged),
        byKind,
      ),
    ),
  );
  return {
    items: results.flatMap((r) => r.items),
    errors: results.flatMap((r) => r.errors),
    broken: results.flatMap((r) => r.broken),
  };
}

function withoutSites(sites: ReadonlySet<number>, errors: readonly WireError[]): ReadonlySet<number> {
  if (errors.length === 0) return sites;
  const unread = new Set(errors.map((error) => error.siteId));
  return new Set([...sites].filter((id) => !unread.has(id)));
}
