import { SvcError } from '../errors.js';
import type { DesiredState, Site, SiteSelection, SourceRef } from '../types.js';
import { normaliseAddress } from './select.js';

/** Where a selection was written, in the words a refusal uses. */
interface Owner {
  what: string;
  source?: SourceRef | undefined;
}

function selectionsOf(desired: DesiredState): Array<[SiteSelection, Owner]> {
  return [
    [desired.sites, { what: 'the top-level `sites`', source: desired.sitesSource }],
    ...desired.ignores.map((rule, i): [SiteSelection, Owner] => [
      rule.selection,
      { what: `ignore rule ${i + 1}`, source: rule.source },
    ]),
    ...desired.policies.map((policy): [SiteSelection, Owner] => [
      policy.selection,
      { what: `update policy \`${policy.name}\``, source: policy.source },
    ]),
    ...desired.holds.map((hold): [SiteSelection, Owner] => [
      hold.selection,
      { what: `the hold on ${hold.kind} ${hold.slug}`, source: hold.source },
    ]),
    ...desired.waves.map((wave): [SiteSelection, Owner] => [
      wave.selection,
      { what: `wave \`${wave.name}\`` },
    ]),
  ];
}

/**
 * The first of `domains` whose address the dashboard lists for two or more sites, with those
 * sites' IDs ascending; undefined when each names at most one. The one check of "a domain
 * names one site", for the desired state's selections and for targets alike. Addresses compare
 * as selections match them (`normaliseAddress`); among several ambiguous domains, the one whose
 * first site the listing gives first is returned.
 */
export function firstAmbiguousDomain(
  domains: readonly string[],
  sites: readonly Site[],
): { index: number; siteIds: number[] } | undefined {
  const indexOf = new Map<string, number>();
  for (let i = 0; i < domains.length; i++) {
    const address = normaliseAddress(domains[i] as string);
    if (!indexOf.has(address)) indexOf.set(address, i);
  }
  if (indexOf.size === 0) return undefined;
  const idsByAddress = new Map<string, number[]>();
  for (const site of sites) {
    const address = normaliseAddress(site.url);
    if (!indexOf.has(address)) continue;
    const ids = idsByAddress.get(address);
    if (ids === undefined) idsByAddress.set(address, [site.id]);
    else ids.push(site.id);
  }
  for (const [address, ids] of idsByAddress) {
    if (ids.length >= 2) return { index: indexOf.get(address) as number, siteIds: ids.sort((a, b) => a - b) };
  }
  return undefined;
}

/**
 * A domain names one site. When the dashboard lists several site IDs with one address (a site
 * added twice), a domain in the desired state would select all of them, and the plan would act
 * on sites nobody named: refused whole, naming the IDs, as a site ID listed twice is refused
 * (dashboard/live/invariants.ts). Globs select many sites by design and are not checked.
 */
export function refuseAmbiguousDomains(desired: DesiredState, sites: readonly Site[]): void {
  const domains: string[] = [];
  const owners: Owner[] = [];
  for (const [selection, owner] of selectionsOf(desired)) {
    for (const matcher of [...selection.include, ...selection.exclude]) {
      if (matcher.type !== 'domain') continue;
      domains.push(matcher.domain);
      owners.push(owner);
    }
  }
  const found = firstAmbiguousDomain(domains, sites);
  if (found !== undefined)
    throw ambiguous(domains[found.index] as string, owners[found.index] as Owner, found.siteIds);
}

function ambiguous(domain: string, owner: Owner, ids: number[]): SvcError {
  const where = owner.source ? `${owner.source.file}:${owner.source.line}: ` : '';
  const list = `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
  return new SvcError(
    'CONFIG_INVALID',
    `${where}${owner.what} names the domain ${domain}, which the dashboard lists for ${ids.length} sites (IDs ${list})`,
    {
      hint: `Name the site by its ID instead of its domain (for example sites: [${ids[0]}]), or remove the duplicate site from the dashboard.`,
      details: { domain, siteIds: ids },
    },
  );
}
