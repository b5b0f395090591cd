import { closest } from '../config/index.js';
import type { DesiredState, ItemKind, LiveState, Plan, SourceRef } from '../types.js';

/**
 * Names in the desired state that the dashboard does not know: a site an ID or domain names that
 * it does not list (the plan's `unknown-site` notes), and a plugin or theme slug that no site
 * reports. Most are typos, which would otherwise plan nothing, or an ignore of nothing, without a
 * word. Each comes with the closest name the dashboard does know.
 *
 * The fleet-wide listings hold pending updates and ignores only, so a slug is first checked
 * against those (free: already read). A slug of an item that is installed, up to date and not
 * ignored is in neither; `installed` (the items the per-site listings showed, see
 * DashboardClient.searchInstalled) settles it, and without it the message says what was checked.
 */
export interface UnknownName {
  message: string;
  /**
   * Not a name the dashboard lacks: slugs that could not be judged, and why (printed as a note,
   * never a warning or a --strict failure); the installed items would settle them.
   */
  unchecked?: Array<{ kind: 'plugin' | 'theme'; slug: string }>;
  suggestion?: string;
  /** Set for a slug: what `installed` would settle. */
  item?: { kind: 'plugin' | 'theme'; slug: string };
}

/** The installed items seen on `sitesRead` sites of the plan (every site, unless all were found). */
export interface InstalledSeen {
  plugin: Set<string>;
  theme: Set<string>;
  sitesRead: number;
}

/**
 * A plugin slug is `folder/file.php`: a misspelt file name alone (`classic-editr.php`) is too far
 * from the whole slug for a typo match, so it is matched against the file names too.
 */
function closestByFile(slug: string, candidates: readonly string[]): string | undefined {
  const byFile = new Map(
    candidates.map((candidate) => [candidate.slice(candidate.indexOf('/') + 1), candidate]),
  );
  const file = closest(slug, byFile.keys());
  return file === undefined ? undefined : byFile.get(file);
}

/** A slug glob matches many names: only a plain slug can be checked. */
const isGlob = (slug: string) => /[*?[\]]/.test(slug);

/** The closest address, tag or client the dashboard has to the one an unknown-site note names. */
function siteSuggestion(message: string, live: LiveState, addresses: readonly string[]): string | undefined {
  const group = /\bselects (tag|client) "(.*)"(?: \([^)]*\))?, which the dashboard does not have$/.exec(
    message,
  );
  if (group)
    return closest(group[2] ?? '', (group[1] === 'tag' ? live.groups?.tags : live.groups?.clients) ?? []);
  const domain = /\bdomain (\S+), which/.exec(message)?.[1];
  return domain === undefined ? undefined : closest(domain, addresses);
}

const where = (source: SourceRef) => `${source.file}:${source.line}:${source.col}`;

/**
 * `targetSiteIds`: the read was narrowed to these sites (`--target`), so `live` holds only their
 * updates and ignores. A slug missing from them may be on any other site: no slug can then be
 * called unknown without the installed items, and one note says the slugs were not judged.
 */
export function unknownNames(
  desired: DesiredState,
  live: LiveState,
  plan: Plan,
  installed?: InstalledSeen,
  targetSiteIds?: readonly number[],
): UnknownName[] {
  const found: UnknownName[] = [];
  const unknownSites = plan.notes.filter((n) => n.kind === 'unknown-site');
  // The fleet's addresses are written out only when a site name needs a suggestion.
  const addresses =
    unknownSites.length === 0
      ? []
      : [...live.sites.map((site) => site.url), ...live.unreadable.map((entry) => entry.url)].map((url) =>
          url.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, ''),
        );
  for (const note of unknownSites) {
    const suggestion = siteSuggestion(note.message, live, addresses);
    found.push({ message: note.message, ...(suggestion === undefined ? {} : { suggestion }) });
  }

  const known = new Map<ItemKind, Set<string>>();
  const remember = (kind: ItemKind, slug: string) => {
    if (slug === '*') return;
    const slugs = known.get(kind) ?? new Set<string>();
    slugs.add(slug);
    known.set(kind, slugs);
  };
  for (const update of live.pending) remember(update.kind, update.slug);
  for (const ignore of live.ignores) if (ignore.kind !== 'core') remember(ignore.kind, ignore.slug);
  for (const slug of installed?.plugin ?? []) remember('plugin', slug);
  for (const slug of installed?.theme ?? []) remember('theme', slug);
  const checked = installed
    ? `no pending update, no ignore, not installed on any of the ${installed.sitesRead} sites read`
    : 'no pending update, no ignore; installed items not read';

  const narrowed = targetSiteIds !== undefined && installed === undefined;
  const unjudged = new Map<string, { kind: 'plugin' | 'theme'; slug: string }>();
  const check = (kind: 'plugin' | 'theme', slug: string, who: string, source: SourceRef) => {
    if (isGlob(slug) || known.get(kind)?.has(slug)) return;
    if (narrowed) {
      unjudged.set(`${kind} ${slug}`, { kind, slug });
      return;
    }
    const candidates = [...(known.get(kind) ?? [])];
    // `akismet.php` for `akismet/akismet.php`: the file without its folder is no typo distance away.
    const suggestion =
      candidates.find((candidate) => candidate.endsWith(`/${slug}`)) ??
      closest(slug, candidates) ??
      closestByFile(slug, candidates);
    found.push({
      message: `${where(source)}: ${who} names ${kind} ${slug}, which no site reports (${checked})`,
      ...(suggestion === undefined ? {} : { suggestion }),
      item: { kind, slug },
    });
  };
  for (const rule of desired.ignores) {
    for (const slug of rule.plugins) check('plugin', slug, 'an ignore rule', rule.source);
    for (const slug of rule.themes) check('theme', slug, 'an ignore rule', rule.source);
  }
  for (const policy of desired.policies)
    for (const kind of policy.kinds)
      if (kind === 'plugin' || kind === 'theme')
        for (const slug of policy.include) check(kind, slug, `policy ${policy.name}`, policy.source);
  for (const hold of desired.holds)
    if (hold.kind === 'plugin' || hold.kind === 'theme') check(hold.kind, hold.slug, 'a hold', hold.source);
  if (unjudged.size > 0) {
    const sites = targetSiteIds?.length ?? 0;
    found.push({
      unchecked: [...unjudged.values()],
      message: `${unjudged.size} plugin or theme slug${unjudged.size === 1 ? '' : 's'} of the desired state not checked: --target read the updates and ignores of ${sites} site${sites === 1 ? '' : 's'} only, and a slug may be on another site (plan without --target, or with --strict, checks them)`,
    });
  }
  return found;
}
