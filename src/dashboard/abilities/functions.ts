import type { IgnorableKind, ItemKind } from '../../types.js';
import { typesValue } from '../wire/common.js';
import { type Json, Reader } from '../wire/json.js';
import {
  type IgnoredListing,
  parseIgnoredListing,
  parseSitesPage,
  parseUpdateEntry,
  parseUpdatesPage,
  type SitesPage,
  type UpdatesPage,
  type WireUpdate,
} from '../wire/reads.js';
import { parseSiteRunResult, type SiteRunResult } from '../wire/site-results.js';
import {
  type JobStatus,
  parseJobStatus,
  parseRunResponse,
  parseSuccess,
  type RunResponse,
} from '../wire/writes.js';
import type { AbilityCaller } from './call.js';

type SiteRef = number | string;

/**
 * One typed function per ability: the 13 update abilities plus `list-sites-v1` and
 * `get-batch-job-status-v1`. Inputs are built only from declared keys; empty arrays are left
 * out, because for several abilities an explicit `[]` means "nothing" and an absent key "all".
 * Outputs are parsed by the tolerant readers (spec and shipped shapes alike).
 */
export function abilityFunctions(caller: AbilityCaller, signal?: AbortSignal) {
  const where = (short: string) => `ability ${caller.info(short)?.name ?? short}`;
  const run = async (short: string, input: Record<string, unknown>) =>
    caller.call(short, compact(input), signal);
  const types = (kinds?: ItemKind[]) => kinds?.map(typesValue);
  return {
    listSites: async (page: number, perPage: number): Promise<SitesPage> =>
      parseSitesPage(await run('list-sites-v1', { page, per_page: perPage }), where('list-sites-v1')),
    listUpdates: async (o: {
      sites?: SiteRef[];
      kinds?: ItemKind[];
      page?: number;
      perPage?: number;
    }): Promise<UpdatesPage> =>
      parseUpdatesPage(
        await run('list-updates-v1', {
          site_ids_or_domains: o.sites,
          types: types(o.kinds),
          page: o.page,
          per_page: o.perPage,
        }),
        where('list-updates-v1'),
      ),
    getSiteUpdates: async (site: SiteRef, kinds?: ItemKind[]): Promise<WireUpdate[]> => {
      const body = await run('get-site-updates-v1', { site_id_or_domain: site, types: types(kinds) });
      return siteUpdates(body, where('get-site-updates-v1'));
    },
    runUpdates: async (o: { sites: SiteRef[]; kinds?: ItemKind[]; items?: string[] }): Promise<RunResponse> =>
      parseRunResponse(
        await run('run-updates-v1', {
          site_ids_or_domains: o.sites,
          types: types(o.kinds),
          specific_items: o.items,
        }),
        where('run-updates-v1'),
      ),
    updateAll: async (sites: SiteRef[], kinds?: ItemKind[]): Promise<RunResponse> =>
      parseRunResponse(
        await run('update-all-v1', { site_ids_or_domains: sites, types: types(kinds) }),
        where('update-all-v1'),
      ),
    updateSiteCore: async (site: number): Promise<SiteRunResult> =>
      parseSiteRunResult(
        await run('update-site-core-v1', { site_id_or_domain: site }),
        where('update-site-core-v1'),
        site,
        'core',
      ),
    updateSitePlugins: async (site: number, slugs: string[]): Promise<SiteRunResult> =>
      parseSiteRunResult(
        await run('update-site-plugins-v1', { site_id_or_domain: site, slugs }),
        where('update-site-plugins-v1'),
        site,
        'plugin',
      ),
    updateSiteThemes: async (site: number, slugs: string[]): Promise<SiteRunResult> =>
      parseSiteRunResult(
        await run('update-site-themes-v1', { site_id_or_domain: site, slugs }),
        where('update-site-themes-v1'),
        site,
        'theme',
      ),
    updateSiteTranslations: async (site: number, slugs?: string[]): Promise<SiteRunResult> => {
      // `slugs` exists only in the shipped schema; send it only where it is declared.
      const input = caller.declares('update-site-translations-v1', 'slugs')
        ? { site_id_or_domain: site, slugs }
        : { site_id_or_domain: site };
      return parseSiteRunResult(
        await run('update-site-translations-v1', input),
        where('update-site-translations-v1'),
        site,
        'translation',
      );
    },
    listIgnoredUpdates: async (sites?: SiteRef[]): Promise<IgnoredListing> => {
      // The spec's schema has no site filter: then the whole listing is read and filtered here.
      const filtered = caller.declares('list-ignored-updates-v1', 'site_ids_or_domains');
      const body = await run('list-ignored-updates-v1', filtered ? { site_ids_or_domains: sites } : {});
      const listing = parseIgnoredListing(body, where('list-ignored-updates-v1'));
      if (filtered || !sites) return listing;
      const wanted = new Set(sites.map(String));
      return { ...listing, ignored: listing.ignored.filter((i) => wanted.has(String(i.siteId))) };
    },
    setIgnoredUpdates: async (
      action: 'ignore' | 'unignore',
      site: SiteRef,
      kind: IgnorableKind,
      slug: string,
    ) =>
      parseSuccess(
        await run('set-ignored-updates-v1', { action, site_id_or_domain: site, type: kind, slug }),
        where('set-ignored-updates-v1'),
      ),
    ignoreSiteCore: async (site: SiteRef, action: 'add' | 'remove') =>
      parseSuccess(
        await run('ignore-site-core-v1', { site_id_or_domain: site, action }),
        where('ignore-site-core-v1'),
      ),
    ignoreSitePlugins: async (site: SiteRef, action: 'add' | 'remove', slugs: string[]) =>
      parseSuccess(
        await run('ignore-site-plugins-v1', { site_id_or_domain: site, action, slugs }),
        where('ignore-site-plugins-v1'),
      ),
    ignoreSiteThemes: async (site: SiteRef, action: 'add' | 'remove', slugs: string[]) =>
      parseSuccess(
        await run('ignore-site-themes-v1', { site_id_or_domain: site, action, slugs }),
        where('ignore-site-themes-v1'),
      ),
    getBatchJobStatus: async (jobId: string): Promise<JobStatus> =>
      parseJobStatus(
        await run('get-batch-job-status-v1', { job_id: jobId }),
        where('get-batch-job-status-v1'),
      ),
  };
}

export type AbilityFunctions = ReturnType<typeof abilityFunctions>;

/** Drops undefined values and empty arrays (see above). */
function compact(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
  );
}

/** `get-site-updates-v1`: entries may omit the site fields, which then sit at the top level. */
function siteUpdates(body: Json | undefined, where: string): WireUpdate[] {
  const r = Reader.of(body, where);
  const siteId = r.int('site_id');
  return r.array('updates').map((item, index) => {
    const entry = Reader.of(item, where, `updates[${index}]`).value;
    return parseUpdateEntry({ site_id: siteId, ...entry }, where, 'updates', index);
  });
}
