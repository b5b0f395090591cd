/**
 * Site selection. A site is selected when it matches any `include` matcher and no `exclude`
 * matcher. Domains compare as normalised addresses: lower case, no scheme, no leading `www.`,
 * no trailing slash (a subdirectory path stays part of the address); globs (`*`, `?`) run over
 * the same normalised address. Selections are compiled once per plan: a fleet has thousands of
 * sites and every rule is asked about each.
 */
import type { Site, SiteMatcher, SiteSelection } from '../types.js';
import { compileGlob } from './glob.js';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//;

/** `https://WWW.Example.test/` → `example.test`; `http://a.test/blog/` → `a.test/blog`. */
export function normaliseAddress(urlOrDomain: string): string {
  let address = urlOrDomain.trim().toLowerCase();
  // Asked once per site and rule of a fleet: plain string steps where a pattern is not needed.
  const scheme = SCHEME.exec(address);
  if (scheme) address = address.slice(scheme[0].length);
  if (address.startsWith('www.')) address = address.slice(4);
  let end = address.length;
  while (end > 0 && address.charCodeAt(end - 1) === 47) end--; // trailing '/'
  return end === address.length ? address : address.slice(0, end);
}

type SitePredicate = (site: Site, address: string) => boolean;

function compileMatcher(matcher: SiteMatcher): SitePredicate {
  switch (matcher.type) {
    case 'all':
      return () => true;
    case 'id':
      return (site) => site.id === matcher.id;
    case 'domain': {
      const domain = normaliseAddress(matcher.domain);
      return (_site, address) => address === domain;
    }
    case 'glob': {
      const matches = compileGlob(normaliseAddress(matcher.pattern));
      return (_site, address) => matches(address);
    }
    case 'tag': {
      const { name } = matcher;
      return (site) => site.tags?.includes(name) === true;
    }
    case 'client': {
      const { name } = matcher;
      return (site) => site.client === name;
    }
  }
}

export type SiteFilter = (site: Site) => boolean;

function anyMatches(predicates: readonly SitePredicate[], site: Site, address: string): boolean {
  for (let i = 0; i < predicates.length; i++)
    if ((predicates[i] as SitePredicate)(site, address)) return true;
  return false;
}

/** A selection asked with the site's normalised address (computed once by the caller). */
type AddressedFilter = (site: Site, address: string) => boolean;

function compileAddressed(selection: SiteSelection): AddressedFilter {
  const include = selection.include.map(compileMatcher);
  const exclude = selection.exclude.map(compileMatcher);
  // Plain loops: a callback per call (`some`) is two closures allocated per site and rule.
  return (site, address) => anyMatches(include, site, address) && !anyMatches(exclude, site, address);
}

function needsAddress(selection: SiteSelection): boolean {
  return [...selection.include, ...selection.exclude].some(
    (matcher) => matcher.type === 'domain' || matcher.type === 'glob',
  );
}

export function compileSelection(selection: SiteSelection): SiteFilter {
  const selects = compileAddressed(selection);
  // Most selections are `all` or ids: only domains and globs need the (costly) address.
  if (!needsAddress(selection)) return (site) => selects(site, '');
  return (site) => selects(site, normaliseAddress(site.url));
}

/**
 * Which of many selections select a site, as their positions in ascending order. A desired
 * state may hold thousands of rules (`import` writes one per distinct ignore list, naming its
 * sites by ID or address): asking every rule about every site would cost rules × sites. A
 * selection that includes only IDs and domains can select only the sites it names, so it is
 * filed under those keys and asked only about them; the others (`all`, globs) are asked about
 * every site. Each candidate is still asked in full (its excludes included), so the answer is
 * exactly `selections.filter(selects)`.
 */
export function compileSelections(selections: readonly SiteSelection[]): (site: Site) => number[] {
  const filters = selections.map(compileAddressed);
  const everywhere: number[] = [];
  const byId = new Map<number, number[]>();
  const byAddress = new Map<string, number[]>();
  const file = <K>(index: Map<K, number[]>, key: K, position: number) => {
    const positions = index.get(key);
    if (positions === undefined) index.set(key, [position]);
    else if (positions.at(-1) !== position) positions.push(position);
  };
  selections.forEach((selection, position) => {
    if (!selection.include.every((matcher) => matcher.type === 'id' || matcher.type === 'domain')) {
      everywhere.push(position);
      return;
    }
    for (const matcher of selection.include) {
      if (matcher.type === 'id') file(byId, matcher.id, position);
      else if (matcher.type === 'domain') file(byAddress, normaliseAddress(matcher.domain), position);
    }
  });
  const addressNeeded = selections.some(needsAddress);
  return (site) => {
    const address = addressNeeded ? normaliseAddress(site.url) : '';
    const byItsId = byId.get(site.id);
    const byItsAddress = byAddress.get(address);
    // Most sites are named by no rule: nothing to merge then (and nothing allocated).
    const candidates =
      byItsId === undefined && byItsAddress === undefined
        ? everywhere
        : [...new Set([...everywhere, ...(byItsId ?? []), ...(byItsAddress ?? [])])].sort((a, b) => a - b);
    const selected: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const position = candidates[i] as number;
      if ((filters[position] as AddressedFilter)(site, address)) selected.push(position);
    }
    return selected;
  };
}

export function matchesSelection(site: Site, selection: SiteSelection): boolean {
  return compileSelection(selection)(site);
}
