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
 * A domain names one site. When the dashboard lists several site IDs with one address (a site
 * added twice), a domain in the desired state would select all of them, and the plan would act
 * on sites nobody named: refused whole, naming the IDs, as a site ID listed twice is refused
 * (dashboard/live/invariants.ts). Globs select many sites by design and are not checked.
 */
export function refuseAmbiguousDomains(desired: DesiredState, sites: readonly Site[]): void {
  const named = new Map<string, { domain: string; owner: Owner }>();
  for (const [selection, owner] of selectionsOf(desired)) {
    for (const matcher of [...selection.include, ...selection.exclude]) {
      if (matcher.type !== 'domain') continue;
      const address = normaliseAddress(matcher.domain);
      if (!named.has(address)) named.set(address, { domain: matcher.domain, owner });
    }
  }
  if (named.size === 0) return;
  const idsByAddress = new Map<string, number[]>();
  for (const site of sites) {
    const address = normaliseAddress(site.url);
    if (!named.has(address)) continue;
    const ids = idsByAddress.get(address);
    if (ids === undefined) idsByAddress.set(address, [site.id]);
    else ids.push(site.id);
  }
  for (const [address, ids] of idsByAddress) {
    if (ids.length < 2) continue;
    const { domain, owner } = named.get(address) as { domain: string; owner: Owner };
    throw ambiguous(
      domain,
      owner,
      [...ids].sort((a, b) => a - b),
    );
  }
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
