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
  }
}

export type SiteFilter = (site: Site) => boolean;

function anyMatches(predicates: readonly SitePredicate[], site: Site, address: string): boolean {
  for (let i = 0; i < predicates.length; i++)
    if ((predicates[i] as SitePredicate)(site, address)) return true;
  return false;
}

export function compileSelection(selection: SiteSelection): SiteFilter {
  const include = selection.include.map(compileMatcher);
  const exclude = selection.exclude.map(compileMatcher);
  // Most selections are `all` or ids: only domains and globs need the (costly) address.
  const byAddress = [...selection.include, ...selection.exclude].some(
    (matcher) => matcher.type === 'domain' || matcher.type === 'glob',
  );
  // Plain loops: a callback per call (`some`) is two closures allocated per site and rule.
  return (site) => {
    const address = byAddress ? normaliseAddress(site.url) : '';
    return anyMatches(include, site, address) && !anyMatches(exclude, site, address);
  };
}

export function matchesSelection(site: Site, selection: SiteSelection): boolean {
  return compileSelection(selection)(site);
}
