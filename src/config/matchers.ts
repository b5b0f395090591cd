import type { SiteMatcher, SiteSelection } from '../types.js';

/**
 * Static reasoning about site selections without knowing the fleet. Everything here is
 * conservative in the direction that avoids false alarms: "overlap" and "covered" answer true only
 * when it is certain for every possible fleet.
 */
export function matcherKey(m: SiteMatcher): string {
  switch (m.type) {
    case 'all':
      return 'all';
    case 'id':
      return `id:${m.id}`;
    case 'domain':
      return `domain:${m.domain}`;
    case 'glob':
      return `glob:${m.pattern}`;
    case 'tag':
    case 'client':
      return `${m.type}:${m.name}`;
  }
}

/** `*` any characters, `?` one character; everything else literal. Anchored. */
export function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

/**
 * A domain or glob as the planner compares it (plan/select.ts): without a leading `www.`, so
 * `www.shop.test` is the site `shop.test` and the glob `w*` does not match it. The schema keeps
 * site items in lower case, without scheme or trailing slash.
 */
function address(text: string): string {
  return text.startsWith('www.') ? text.slice(4) : text;
}

/** Every site `inner` matches is also matched by `outer`. */
export function covers(outer: SiteMatcher, inner: SiteMatcher): boolean {
  if (outer.type === 'all') return true;
  if (inner.type === 'all') return false;
  // Tags and clients are known only to the dashboard: one covers only itself.
  if (outer.type === 'tag' || outer.type === 'client')
    return inner.type === outer.type && inner.name === outer.name;
  if (inner.type === 'tag' || inner.type === 'client') return false;
  if (outer.type === 'id') return inner.type === 'id' && inner.id === outer.id;
  if (outer.type === 'domain')
    return inner.type === 'domain' && address(inner.domain) === address(outer.domain);
  const pattern = address(outer.pattern);
  if (inner.type === 'domain') return globToRegExp(pattern).test(address(inner.domain));
  if (inner.type === 'glob') return pattern === '*' || pattern === address(inner.pattern);
  return false;
}

/** No site can be selected: every include item is covered by an exclude item. */
export function selectsNothing(selection: SiteSelection): boolean {
  return selection.include.every((inc) => selection.exclude.some((exc) => covers(exc, inc)));
}

/**
 * Some site is certainly selected by both (ignoring which sites the fleet happens to have):
 * a common witness — a domain, an ID, or a pattern — that neither selection excludes.
 */
export function certainlyOverlap(a: SiteSelection, b: SiteSelection): boolean {
  for (const x of a.include) {
    for (const y of b.include) {
      const witness = commonWitness(x, y);
      if (
        witness &&
        !a.exclude.some((e) => covers(e, witness)) &&
        !b.exclude.some((e) => covers(e, witness))
      ) {
        return true;
      }
    }
  }
  return false;
}

function commonWitness(x: SiteMatcher, y: SiteMatcher): SiteMatcher | undefined {
  if (covers(x, y)) return y;
  if (covers(y, x)) return x;
  return undefined;
}
