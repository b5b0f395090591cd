import { SvcError } from '../errors.js';
import { compileSelections, firstAmbiguousDomain } from '../plan/index.js';
import type { Site, SiteMatcher } from '../types.js';

/**
 * Targets: numeric IDs, domains or domain globs; each must name at least one site, and a domain
 * one site only. Refusals say it in no front end's words (`details.reason` and the target); a
 * front end names its own flag or argument.
 */
export function resolveTargets(targets: readonly string[], sites: readonly Site[]): number[] {
  const matchers = targets.map(
    (target): SiteMatcher =>
      /^\d+$/.test(target)
        ? { type: 'id', id: Number(target) }
        : /[*?]/.test(target)
          ? { type: 'glob', pattern: target }
          : { type: 'domain', domain: target },
  );
  // A domain names one site: the planner's own check, so a target and a desired-state
  // selection refuse the same sites.
  const domainTargets = matchers.flatMap((matcher, position) =>
    matcher.type === 'domain' ? [position] : [],
  );
  const ambiguous = firstAmbiguousDomain(
    domainTargets.map((position) => targets[position] as string),
    sites,
  );
  if (ambiguous !== undefined) {
    const target = targets[domainTargets[ambiguous.index] as number] as string;
    const named = ambiguous.siteIds;
    const list = `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
    throw new SvcError(
      'USAGE',
      `target ${target} names ${named.length} sites of the dashboard (IDs ${list})`,
      {
        hint: `give the site's ID instead (${named[0]})`,
        details: { reason: 'target-names-many', target, siteIds: named },
      },
    );
  }
  // All targets at once: a long list (thousands of IDs) is not a scan of the fleet per target.
  const selecting = compileSelections(matchers.map((matcher) => ({ include: [matcher], exclude: [] })));
  const ids = new Set<number>();
  const matched = new Array<boolean>(targets.length).fill(false);
  for (const site of sites) {
    const positions = selecting(site);
    if (positions.length > 0) ids.add(site.id);
    for (const position of positions) matched[position] = true;
  }
  const unmatched = matched.indexOf(false);
  if (unmatched >= 0) {
    const target = targets[unmatched] as string;
    throw new SvcError('USAGE', `target ${target} matches no site of the dashboard`, {
      hint: 'give a site ID, a domain such as shop.example.com, or a glob such as "*.example.com"',
      details: { reason: 'target-matches-none', target },
    });
  }
  return [...ids].sort((a, b) => a - b);
}
