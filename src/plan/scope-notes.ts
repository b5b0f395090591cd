/**
 * Plan-wide notes about scope: sites that could not be read, and sites named by ID or domain
 * that the dashboard does not know: in any selection of the desired state (sites, ignore rules,
 * policies, holds, waves) or in `targetSiteIds` (the CLI refuses an unknown `--target` before
 * planning; other callers of createPlan get the note).
 */
import type { DesiredState, LiveState, Site, SiteSelection, UnreadableSite } from '../types.js';
import type { NoteBook } from './notes.js';
import { sourceLabel } from './reasons.js';
import { normaliseAddress } from './select.js';

export function scopeNotes(
  desired: DesiredState,
  live: LiveState,
  unreadable: ReadonlyMap<number, UnreadableSite>,
  inScope: (site: Site) => boolean,
  targets: ReadonlySet<number> | undefined,
  book: NoteBook,
): void {
  // Sites by id (the later of a site listed twice, as the live index has it), made only when
  // an unreadable site, an ID matcher or a target asks.
  let listed: Map<number, Site> | undefined;
  const listedSite = (id: number): Site | undefined => {
    listed ??= new Map(live.sites.map((site) => [site.id, site]));
    return listed.get(id);
  };
  for (const entry of live.unreadable) {
    const known = listedSite(entry.siteId);
    const site: Site = known ?? { id: entry.siteId, url: entry.url, name: '', status: 'disconnected' };
    if (!inScope(site)) continue;
    const message = `could not be read (${entry.code}: ${entry.message}); no actions planned`;
    book.addAbout({ kind: 'unreadable-site', message }, [site]);
  }
  const knownId = (id: number) => unreadable.has(id) || listedSite(id) !== undefined;
  const selections = namedSelections(desired);
  // Only a domain matcher needs the addresses; most selections have none.
  const knownAddresses = selections.some(([, selection]) =>
    selection.include.some((m) => m.type === 'domain'),
  )
    ? new Set(
        [...live.sites.map((site) => site.url), ...live.unreadable.map((entry) => entry.url)].map(
          normaliseAddress,
        ),
      )
    : new Set<string>();
  for (const [who, selection] of selections) {
    for (const matcher of selection.include) {
      const unknown =
        matcher.type === 'id'
          ? !knownId(matcher.id) && `site id ${matcher.id}`
          : matcher.type === 'domain' &&
            !knownAddresses.has(normaliseAddress(matcher.domain)) &&
            `domain ${matcher.domain}`;
      if (unknown) {
        book.add({
          kind: 'unknown-site',
          message: `${who} selects ${unknown}, which the dashboard does not list`,
        });
      }
    }
  }
  for (const id of targets ?? []) {
    if (!knownId(id))
      book.add({ kind: 'unknown-site', message: `target site id ${id} is not listed by the dashboard` });
  }
}

/**
 * Every selection of the desired state, with how a note names it: a site an ID or domain names
 * that the dashboard does not list is most often a typo, which would otherwise plan nothing
 * for it without a word.
 */
export function namedSelections(desired: DesiredState): Array<[string, SiteSelection]> {
  return [
    [
      desired.sitesSource ? `desired state (${sourceLabel(desired.sitesSource)})` : 'desired state',
      desired.sites,
    ],
    ...desired.ignores.map((rule): [string, SiteSelection] => [
      `ignore rule (${sourceLabel(rule.source)})`,
      rule.selection,
    ]),
    ...desired.policies.map((policy): [string, SiteSelection] => [
      `policy "${policy.name}" (${sourceLabel(policy.source)})`,
      policy.selection,
    ]),
    ...desired.holds.map((hold): [string, SiteSelection] => [
      `hold (${sourceLabel(hold.source)})`,
      hold.selection,
    ]),
    ...desired.waves.map((wave): [string, SiteSelection] => [`wave "${wave.name}"`, wave.selection]),
  ];
}
