import { SvcError } from '../errors.js';
import { compileSelections } from '../plan/index.js';
import type { Site, SiteMatcher } from '../types.js';

/**
 * `--target` values: numeric IDs, domains or domain globs; each must name at least one site.
 * `label` is how a refusal names them (a tool's argument is `target`).
 */
export function resolveTargets(
  targets: readonly string[],
  sites: readonly Site[],
  label = '--target',
): number[] {
  const matchers = targets.map(
    (target): SiteMatcher =>
      /^\d+$/.test(target)
        ? { type: 'id', id: Number(target) }
        : /[*?]/.test(target)
          ? { type: 'glob', pattern: target }
          : { type: 'domain', domain: target },
  );
  // All targets at once: a long list (thousands of IDs) is not a scan of the fleet per target.
  const selecting = compileSelections(matchers.map((matcher) => ({ include: [matcher], exclude: [] })));
  const ids = new Set<number>();
  const matched = new Array<boolean>(targets.length).fill(false);
  // A domain names one site: the IDs each domain target matched, to refuse one that names more.
  const byDomain = new Map<number, number[]>();
  for (const site of sites) {
    const positions = selecting(site);
    if (positions.length > 0) ids.add(site.id);
    for (const position of positions) {
      matched[position] = true;
      if (matchers[position]?.type === 'domain')
        byDomain.set(position, [...(byDomain.get(position) ?? []), site.id]);
    }
  }
  for (const [position, named] of byDomain) {
    if (named.length < 2) continue;
    const list = `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
    throw new SvcError(
      'USAGE',
      `${label} ${targets[position]} names ${named.length} sites of the dashboard (IDs ${list})`,
      { hint: `give the site's ID instead (${label} ${named[0]})`, details: { siteIds: named } },
    );
  }
  const unmatched = matched.indexOf(false);
  if (unmatched >= 0) {
    const target = targets[unmatched] as string;
    // `--target` takes every value after it: a plan file written after it lands here.
    const hint =
      label === '--target' && /\.json$/i.test(target)
        ? `--target takes every value after it: put the plan file first (svc-gitops apply ${target} …) or end the list with --`
        : 'give a site ID, a domain such as shop.example.com, or a glob such as "*.example.com"';
    throw new SvcError('USAGE', `${label} ${target} matches no site of the dashboard`, { hint });
  }
  return [...ids].sort((a, b) => a - b);
}
