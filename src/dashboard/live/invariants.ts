import { SvcError } from '../../errors.js';
import type { LiveIgnore, Site } from '../../types.js';
import type { WireUpdate } from '../wire/reads.js';

/**
 * What the three listings must agree on before a plan may be made from them: every site ID is a
 * positive integer listed once, and every pending update and every ignore names a listed site.
 * An update of a site missing from the sites listing would otherwise vanish from the plan (with
 * that site's other changes) without a word, and a site `-1` would be sent calls. Either is an
 * inconsistent read (a listing that moved between requests, or a dashboard fault): refused whole.
 */
export function checkListings(
  sites: readonly Site[],
  updates: readonly WireUpdate[],
  ignores: readonly LiveIgnore[],
): void {
  const listed = new Set<number>();
  for (const site of sites) {
    if (!Number.isSafeInteger(site.id) || site.id <= 0)
      throw inconsistent(`the sites listing holds site ID ${site.id}, but site IDs are positive integers`);
    if (listed.has(site.id)) throw inconsistent(`the sites listing holds site ${site.id} twice`);
    listed.add(site.id);
  }
  for (const update of updates) {
    if (!listed.has(update.siteId))
      throw inconsistent(
        `the updates listing names site ${update.siteId} (${update.kind} ${update.slug}), which the sites listing does not hold`,
      );
  }
  for (const ignore of ignores) {
    if (!listed.has(ignore.siteId))
      throw inconsistent(
        `the ignored-updates listing names site ${ignore.siteId} (${ignore.kind} ${ignore.slug}), which the sites listing does not hold`,
      );
  }
}

function inconsistent(what: string): SvcError {
  return new SvcError('INCOMPLETE_READ', `the dashboard's listings disagree: ${what}`, {
    hint: 'Run again; if it keeps happening, the dashboard lists sites it does not report (check its site list and logs).',
    details: { what },
  });
}
