import { closest } from '../config/index.js';
import type { DesiredState, ItemKind, LiveState, Plan, SourceRef } from '../types.js';

/**
 * Names in the desired state that the dashboard does not know: a site an ID or domain names that
 * it does not list (the plan's `unknown-site` notes), and a plugin or theme slug that no site
 * reports (no pending update, no ignore). Most are typos, which would otherwise plan nothing, or
 * an ignore of nothing, without a word. Each comes with the closest name the dashboard does know.
 * The dashboard lists no installed items, only pending updates and ignores: a slug of an item
 * that is installed, up to date and not ignored is reported too (the warning says so).
 */
export interface UnknownName {
  message: string;
  suggestion?: string;
}

/** A slug glob matches many names: only a plain slug can be checked. */
const isGlob = (slug: string) => /[*?[\]]/.test(slug);

const where = (source: SourceRef) => `${source.file}:${source.line}:${source.col}`;

export function unknownNames(desired: DesiredState, live: LiveState, plan: Plan): UnknownName[] {
  const found: UnknownName[] = [];
  const addresses = [...live.sites.map((site) => site.url), ...live.unreadable.map((entry) => entry.url)].map(
    (url) => url.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, ''),
  );
  for (const note of plan.notes.filter((n) => n.kind === 'unknown-site')) {
    const domain = /\bdomain (\S+), which/.exec(note.message)?.[1];
    const suggestion = domain === undefined ? undefined : closest(domain, addresses);
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

  const check = (kind: ItemKind, slug: string, who: string, source: SourceRef) => {
    if (isGlob(slug) || known.get(kind)?.has(slug)) return;
    const candidates = [...(known.get(kind) ?? [])];
    // `akismet.php` for `akismet/akismet.php`: the file without its folder is no typo distance away.
    const suggestion =
      candidates.find((candidate) => candidate.endsWith(`/${slug}`)) ?? closest(slug, candidates);
    found.push({
      message: `${where(source)}: ${who} names ${kind} ${slug}, which no site reports (no pending update, no ignore)`,
      ...(suggestion === undefined ? {} : { suggestion }),
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
  return found;
}
