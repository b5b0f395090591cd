/**
 * The desired state's tag and client selectors (`tag:production`, `client:Acme`): how many listed
 * sites each names, and a note for a name the dashboard does not have. The live state carries
 * the membership (`Site.tags`, `Site.client`) and the names (`LiveState.groups`), read only when
 * the desired state uses that kind.
 */
import type { DesiredState, LiveState, PlanSelector, SiteMatcher, SourceRef } from '../types.js';
import type { NoteBook } from './notes.js';
import { namedSelections } from './scope-notes.js';

type GroupMatcher = Extract<SiteMatcher, { type: 'tag' | 'client' }>;

const isGroup = (matcher: SiteMatcher): matcher is GroupMatcher =>
  matcher.type === 'tag' || matcher.type === 'client';

/** Every tag and client matcher with the selection that names it, in the desired state's order. */
function groupMatchers(desired: DesiredState): Array<[string, GroupMatcher]> {
  const found: Array<[string, GroupMatcher]> = [];
  for (const [who, selection] of namedSelections(desired))
    for (const matcher of [...selection.include, ...selection.exclude])
      if (isGroup(matcher)) found.push([who, matcher]);
  return found;
}

/**
 * What the live read must add for the desired state's selectors: the tags when it selects by
 * tag, the named clients' sites when by client; undefined when it uses neither (nothing extra).
 */
export function selectorNeeds(desired: DesiredState): { tags?: true; clients?: string[] } | undefined {
  const matchers = groupMatchers(desired);
  if (matchers.length === 0) return undefined;
  const clients = [...new Set(matchers.filter(([, m]) => m.type === 'client').map(([, m]) => m.name))];
  return {
    ...(matchers.some(([, m]) => m.type === 'tag') ? { tags: true as const } : {}),
    ...(clients.length > 0 ? { clients } : {}),
  };
}

/** Each distinct selector once, in first-use order, with its listed sites; undefined when none. */
export function planSelectors(desired: DesiredState, live: LiveState): PlanSelector[] | undefined {
  const matchers = groupMatchers(desired);
  if (matchers.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const [, matcher] of matchers) counts.set(`${matcher.type}:${matcher.name}`, 0);
  for (const site of live.sites) {
    for (const tag of site.tags ?? []) {
      const key = `tag:${tag}`;
      const count = counts.get(key);
      if (count !== undefined) counts.set(key, count + 1);
    }
    if (site.client !== undefined) {
      const key = `client:${site.client}`;
      const count = counts.get(key);
      if (count !== undefined) counts.set(key, count + 1);
    }
  }
  return [...counts].map(([selector, sites]) => ({ selector, sites }));
}

const where = (source: SourceRef) => `${source.file}:${source.line}:${source.col}`;

/**
 * An `unknown-site` note per selector naming a tag or client the dashboard does not have (a typo
 * would otherwise select nothing without a word), where it was written first.
 */
export function selectorNotes(desired: DesiredState, live: LiveState, book: NoteBook): void {
  const reported = new Set<string>();
  for (const [who, matcher] of groupMatchers(desired)) {
    const names = matcher.type === 'tag' ? live.groups?.tags : live.groups?.clients;
    const key = `${matcher.type}:${matcher.name}`;
    if (names?.includes(matcher.name) || reported.has(key)) continue;
    reported.add(key);
    const at = matcher.source ? ` (${where(matcher.source)})` : '';
    book.add({
      kind: 'unknown-site',
      message: `${who} selects ${matcher.type} "${matcher.name}"${at}, which the dashboard does not have`,
    });
  }
}
