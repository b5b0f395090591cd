import { isSvcError } from '../../errors.js';
import type { BrokenIgnore, LiveIgnore } from '../../types.js';
import type { WireError } from '../wire/common.js';
import type { SiteFlags, WireIgnore } from '../wire/reads.js';
import type { RestIndexEntry } from '../wire/rest-reads.js';
import { classifyIgnores, refuseRepeatedIgnores } from './origins.js';

/** What a listing answers when one of its entries breaks the ability's own output schema. */
const BROKEN_OUTPUT = 'ability_invalid_output';

/** The code of a broken entry, on an unreadable site and on a BrokenIgnore alike. */
export const BROKEN_ENTRY = 'ignored_entry_broken';

/** Whether a failed ignored-listing read is the broken-entry failure (MainWP 6.1.2's slug 0). */
export function isBrokenListing(error: unknown): boolean {
  return isSvcError(error) && error.details.dashboardCode === BROKEN_OUTPUT;
}

export interface IgnoresRead<T> {
  items: T[];
  errors: WireError[];
  broken: BrokenIgnore[];
}

/** Reads the listing of `sites`, restricted to update `types` (the ability's filter) when given. */
export type ReadIgnoredSites<T> = (
  sites: unknown[],
  types?: readonly string[],
) => Promise<{ items: T[]; errors: WireError[] }>;

const KINDS = [
  ['core', 'core'],
  ['plugins', 'plugin'],
  ['themes', 'theme'],
] as const;

/**
 * Reads the ignored listing of `sites` piece by piece, and where a piece fails because an entry
 * breaks the output schema, site by site. A site whose own listing still fails is read once per
 * kind (`byKind`: the ability declares its `types` filter): the kinds that answer are known, each
 * kind that fails becomes a BrokenIgnore of the whole kind (nothing of it is planned on that
 * site); without the filter the site becomes an error (unreadable: no actions at all). On MainWP
 * 6.1.2 the cause is an ignore its REST per-slug route stored under slug `0` (a plugin or theme
 * ignore made by another client); list-ignored-updates-v1 then fails for every listing holding it.
 */
export async function readAroundBrokenEntries<T>(
  sites: readonly unknown[],
  readSites: ReadIgnoredSites<T>,
  byKind: boolean,
): Promise<IgnoresRead<T>> {
  try {
    return { ...(await readSites([...sites])), broken: [] };
  } catch (error) {
    if (!isBrokenListing(error)) throw error;
    if (sites.length === 1) {
      if (byKind) return readSiteByKind(sites[0], readSites);
      return { items: [], errors: [brokenSite(sites[0], error)], broken: [] };
    }
  }
  const results = await Promise.all(sites.map((site) => readAroundBrokenEntries([site], readSites, byKind)));
  return {
    items: results.flatMap((r) => r.items),
    errors: results.flatMap((r) => r.errors),
    broken: results.flatMap((r) => r.broken),
  };
}

/** One broken site's listing, kind by kind: three small requests, only for a broken site. */
async function readSiteByKind<T>(site: unknown, readSites: ReadIgnoredSites<T>): Promise<IgnoresRead<T>> {
  const out: IgnoresRead<T> = { items: [], errors: [], broken: [] };
  for (const [type, kind] of KINDS) {
    try {
      const read = await readSites([site], [type]);
      out.items.push(...read.items);
      out.errors.push(...read.errors);
    } catch (error) {
      if (!isBrokenListing(error)) throw error;
      out.broken.push({
        siteId: siteIdOf(site),
        kind,
        code: BROKEN_ENTRY,
        message: brokenKindMessage(kind, position(error)),
      });
    }
  }
  return out;
}

/** Kept under safeText's 300 characters with the code and a withheld action or two. */
function brokenKindMessage(kind: BrokenIgnore['kind'], at: string | undefined): string {
  const entry = at === undefined ? 'an entry' : `entry ${at}`;
  return (
    `its ${kind} ignores cannot be listed: ${entry} has a numeric slug (slug 0, as MainWP's REST ` +
    `per-slug ignore stores it); remove that ignore in the dashboard UI. Until then no ${kind} is changed here`
  );
}

function position(error: unknown): string | undefined {
  const reason = isSvcError(error) ? error.message : String(error);
  return /output\[ignored\]\[(\d+)\]\[slug\]/.exec(reason)?.[1];
}

function siteIdOf(site: unknown): number {
  return typeof site === 'number' ? site : Number(site) || 0;
}

function brokenSite(site: unknown, error: unknown): WireError {
  const at = position(error);
  const where = at === undefined ? 'an entry' : `entry ${at} of the site's listing`;
  return {
    siteId: siteIdOf(site),
    siteRef: String(site),
    code: BROKEN_ENTRY,
    message:
      `its ignored updates cannot be read: ${where} has a slug that is not text ` +
      "(an ignore stored under slug 0 by the dashboard's REST per-slug ignore). Remove that ignore in the " +
      "dashboard's Ignored Updates page; svc-gitops changes nothing on this site until then",
  };
}

/**
 * classifyIgnores over the listed entries, kind by kind where a site's listing of a kind is
 * broken: a global entry is on every site whose listing of its kind was read, so a site that
 * could not list its plugins neither counts for nor against a global plugin ignore.
 */
export function classifyReadable(
  listed: WireIgnore[],
  flags: ReadonlyMap<number, SiteFlags>,
  readSites: ReadonlySet<number>,
  broken: readonly BrokenIgnore[],
): LiveIgnore[] {
  if (broken.length === 0) {
    refuseRepeatedIgnores(listed, readSites);
    return classifyIgnores(listed, flags, readSites);
  }
  const out: LiveIgnore[] = [];
  for (const [, kind] of KINDS) {
    const unread = new Set(broken.filter((b) => b.kind === kind).map((b) => b.siteId));
    const sites = new Set([...readSites].filter((id) => !unread.has(id)));
    const ofKind = listed.filter((ignore) => ignore.kind === kind);
    refuseRepeatedIgnores(ofKind, sites);
    // The site-wide flags are added once, with the first kind.
    out.push(...classifyIgnores(ofKind, kind === 'core' ? flags : new Map(), sites));
  }
  return out;
}

/**
 * An entry of a REST per-site ignored listing stored under a list index. The rest of the
 * listing reads, so only the items the entry may mean are withheld: the stored key and the
 * slug its `Name` holds (the slug the REST request meant).
 */
export function restBrokenIgnore(siteId: number, entry: RestIndexEntry): BrokenIgnore {
  const meant = entry.name.slice(0, 120);
  const slugs = [...new Set([entry.stored, meant].filter((slug) => slug !== ''))];
  const named = meant === '' ? '' : ` named "${meant}"`;
  return {
    siteId,
    kind: entry.kind,
    slugs,
    code: BROKEN_ENTRY,
    message:
      `its ${entry.kind} ignores hold an entry under slug ${entry.stored}${named} (MainWP's REST per-slug ` +
      `ignore stores it so); remove that ignore in the dashboard UI. Until then ${entry.kind} ` +
      `${meant || entry.stored} is not changed here`,
  };
}
