import { SvcError } from '../../errors.js';
import type { Site } from '../../types.js';
import type { Connection } from '../connection.js';
import { restCall } from '../rest/call.js';
import { asList, badShape, type Json, Reader } from '../wire/json.js';
import { type SiteFlags, siteFlagsOf } from '../wire/reads.js';
import { parseRestSites, restData } from '../wire/rest-reads.js';
import { readAllPages } from './paging.js';

/** The site listing as the REST site records give it: the sites and the flags of those that set one. */
export interface RestSiteListing {
  sites: Site[];
  flags: Map<number, SiteFlags>;
}

/** The record fields the read uses; MainWP answers `_fields` with only these (~200 bytes a site). */
const FIELDS = [
  'id',
  'url',
  'name',
  'status',
  'suspended',
  'offline',
  'is_ignoreCoreUpdates',
  'is_ignorePluginUpdates',
  'is_ignoreThemeUpdates',
  'ignore_core_updates',
  'ignore_plugin_updates',
  'ignore_theme_updates',
].join(',');

/** The largest page MainWP's REST `/sites` serves when it pages (its list-sites ability's maximum). */
const REST_PAGE = 100;

/**
 * The whole site listing from REST v2 `GET /sites`, complete or it throws INCOMPLETE_READ.
 *
 * MainWP 6.1.2 builds every site of the user for each request to its site listings, whatever
 * the page (measured: a 100-site page of `list-sites-v1` and the whole unpaged listing cost the
 * same), so the cheapest complete read is one request. `with_tags=false` takes its unpaged
 * path (every site, `total` = the sites sent); without it, on WordPress 6.9 its answer is a
 * page of 20 with the fleet's `total`. An answer shorter than its total (a dashboard that pages
 * anyway), or one beyond maxResponseSize, is read again in pages of 100, every page's total
 * checked (readAllPages). An unpaged answer without a total (REST-only dashboards before it was
 * sent) is taken whole, as its JSON arrived complete.
 */
export async function readRestSiteListing(
  conn: Connection,
  signal: AbortSignal | undefined,
  workers: number,
): Promise<RestSiteListing> {
  const where = 'REST GET /sites';
  const get = async (query: string) =>
    restCall(conn, { method: 'GET', route: `/sites?${query}&_fields=${FIELDS}`, retry: true, signal });
  const whole = await readWhole(() => get('with_tags=false'), where);
  if (whole && (whole.total === undefined || whole.records.length === whole.total))
    return listingOf(whole.records, where);
  if (whole?.total !== undefined && whole.records.length > whole.total)
    throw incomplete(where, whole.records.length, whole.total);
  const records = await readAllPages(
    where,
    REST_PAGE,
    async (page, perPage) => {
      const parsed = parseListing(await get(`page=${page}&per_page=${perPage}`), where);
      if (parsed.total === undefined) throw badShape(where, 'total', 'the number of sites', undefined);
      return { items: parsed.records, total: parsed.total };
    },
    undefined,
    workers,
  );
  return listingOf(records, where);
}

/**
 * The one unpaged answer, or undefined when it is larger than maxResponseSize: its pages are
 * then read instead, each within the limit, so a fleet of any size reads with the default limit.
 */
async function readWhole(fetchWhole: () => Promise<Json | undefined>, where: string) {
  try {
    return parseListing(await fetchWhole(), where);
  } catch (error) {
    if (error instanceof SvcError && error.code === 'RESPONSE_TOO_LARGE') return undefined;
    throw error;
  }
}

function parseListing(body: Json | undefined, where: string): { records: Json[]; total: number | undefined } {
  const data = restData(body, where);
  // A numeric-key object stands in for a list in some answers.
  const records = data === null ? [] : asList(data);
  if (records === undefined) throw badShape(where, 'data', 'a list of sites', data);
  return { records, total: Reader.of(body, where).optionalInt('total') };
}

function listingOf(records: Json[], where: string): RestSiteListing {
  const sites = parseRestSites(records, where);
  const flags = new Map<number, SiteFlags>();
  records.forEach((record, index) => {
    const siteFlags = siteFlagsOf(record, where, `data[${index}]`);
    const site = sites[index];
    if (site && siteFlags && (siteFlags.core || siteFlags.plugin || siteFlags.theme))
      flags.set(site.id, siteFlags);
  });
  return { sites, flags };
}

function incomplete(where: string, held: number, total: number): SvcError {
  return new SvcError(
    'INCOMPLETE_READ',
    `${where}: the listing holds ${held} sites but reports a total of ${total}`,
    {
      hint: 'The dashboard dropped sites or changed while it was read; run again.',
      details: { what: where },
    },
  );
}
