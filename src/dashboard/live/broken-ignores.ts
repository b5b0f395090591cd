import { isSvcError } from '../../errors.js';
import type { WireError } from '../wire/common.js';

/** What a listing answers when one of its entries breaks the ability's own output schema. */
const BROKEN_OUTPUT = 'ability_invalid_output';

/** Whether a failed ignored-listing read is the broken-entry failure (MainWP 6.1.2's slug 0). */
export function isBrokenListing(error: unknown): boolean {
  return isSvcError(error) && error.details.dashboardCode === BROKEN_OUTPUT;
}

/**
 * Reads the ignored listing of `sites` piece by piece, and where a piece fails because an entry
 * breaks the output schema, site by site: the sites that answer are planned as usual, and each
 * site whose own listing still fails becomes an error of that site (so it is unreadable: plan
 * names it and changes nothing on it), naming the broken entry's position. On MainWP 6.1.2 the
 * cause is an ignore its REST per-slug route stored under slug `0` (a plugin or theme ignore
 * made by another client); list-ignored-updates-v1 then fails for every listing holding it.
 */
export async function readAroundBrokenEntries<T>(
  sites: readonly unknown[],
  readSites: (sites: unknown[]) => Promise<{ items: T[]; errors: WireError[] }>,
): Promise<{ items: T[]; errors: WireError[] }> {
  try {
    return await readSites([...sites]);
  } catch (error) {
    if (!isBrokenListing(error)) throw error;
    if (sites.length === 1) return { items: [], errors: [brokenSite(sites[0], error)] };
  }
  const results = await Promise.all(sites.map((site) => readAroundBrokenEntries([site], readSites)));
  return { items: results.flatMap((r) => r.items), errors: results.flatMap((r) => r.errors) };
}

function brokenSite(site: unknown, error: unknown): WireError {
  const reason = isSvcError(error) ? error.message : String(error);
  const entry = /output\[ignored\]\[(\d+)\]\[slug\]/.exec(reason)?.[1];
  const where = entry === undefined ? 'an entry' : `entry ${entry} of the site's listing`;
  return {
    siteId: typeof site === 'number' ? site : Number(site) || 0,
    siteRef: String(site),
    code: 'ignored_entry_broken',
    message:
      `its ignored updates cannot be read: ${where} has a slug that is not text ` +
      "(an ignore stored under slug 0 by the dashboard's REST per-slug ignore). Remove that ignore in the " +
      "dashboard's Ignored Updates page; svc-gitops changes nothing on this site until then",
  };
}
