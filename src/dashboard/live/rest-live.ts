import type { BrokenIgnore, DashboardCapabilities, LiveIgnore, LiveState } from '../../types.js';
import type { ReadLiveOptions } from '../client.js';
import type { Connection } from '../connection.js';
import { restCall } from '../rest/call.js';
import { parseRestIgnored, parseRestUpdates, type RestIndexEntry, restData } from '../wire/rest-reads.js';
import { assembleLive } from './assemble.js';
import { restBrokenIgnore } from './broken-ignores.js';
import type { RestSiteListing } from './rest-site-listing.js';

/**
 * The live state through REST v2 (the fallback for dashboards without the abilities API, where
 * REST listings are complete): `GET /sites`, `GET /updates` (all sites at once), the global
 * ignored listing once, and each site's ignored listing, so an ignore is `global` exactly when
 * the global listing has it. The spec's per-site listing holds site ∪ global; MainWP 6.1.2's holds
 * the site's own only, so the global entries a site's listing lacks are added to it. The site
 * listing is readRestSiteListing's. What this surface cannot show: per-site core ignores
 * and the site-wide "ignore this kind" flags (neither listing includes them).
 */
export async function readLiveViaRest(
  conn: Connection,
  capabilities: DashboardCapabilities,
  /** The site listing (readRestSiteListing), started by the caller beside the site flags. */
  listing: Promise<RestSiteListing>,
  options: ReadLiveOptions = {},
): Promise<LiveState> {
  const { signal } = options;
  const get = async (route: string) =>
    restData(await restCall(conn, { method: 'GET', route, retry: true, signal }), `REST GET ${route}`);
  const [{ sites }, updatesData, globalData] = await Promise.all([
    listing,
    get('/updates'),
    get('/updates/ignored'),
  ]);
  const picked = options.siteIds ?? options.selectSites?.(sites);
  const wanted = picked ? new Set(picked) : undefined;
  const readSites = sites.filter((s) => wanted === undefined || wanted.has(s.id));
  const global = parseRestIgnored(0, globalData, 'REST GET /updates/ignored');
  const globalKeys = new Set(global.map((g) => JSON.stringify([g.kind, g.slug])));
  let done = 0;
  const broken: BrokenIgnore[] = [];
  const perSite = await Promise.all(
    readSites.map(async (site) => {
      const route = `/updates/${site.id}/ignored`;
      const indexEntries: RestIndexEntry[] = [];
      const listed = parseRestIgnored(site.id, await get(route), `REST GET ${route}`, indexEntries);
      for (const entry of indexEntries) broken.push(restBrokenIgnore(site.id, entry));
      options.onProgress?.({ done: ++done, total: readSites.length, sites: sites.length });
      const ignores = listed.map(
        (i): LiveIgnore => ({
          ...i,
          origin: globalKeys.has(JSON.stringify([i.kind, i.slug])) ? 'global' : 'site',
        }),
      );
      const listedKeys = new Set(listed.map((i) => JSON.stringify([i.kind, i.slug])));
      for (const g of global)
        if (!listedKeys.has(JSON.stringify([g.kind, g.slug])))
          ignores.push({ ...g, siteId: site.id, origin: 'global' });
      return ignores;
    }),
  );
  return assembleLive({
    dashboardUrl: conn.url,
    sites,
    updates: parseRestUpdates(updatesData, 'REST GET /updates').filter(
      (u) => options.selectSites === undefined || wanted === undefined || wanted.has(u.siteId),
    ),
    ignores: perSite.flat(),
    errors: [],
    broken,
    capabilities,
    siteIds: options.siteIds,
  });
}
