/**
 * Plan-wide notes about scope: sites that could not be read, and sites named by ID or domain
 * that the dashboard does not know: in any selection of the desired state (sites, ignore rules,
 * policies, holds, waves) or in `targetSiteIds` (the CLI refuses an unknown `--target` before
 * planning; other callers of createPlan get the note).
 */
import type { DesiredState, LiveState, Site, SiteSelection } from '../types.js';
import type { LiveIndex } from './live-index.js';
import type { NoteBook } from './notes.js';
import { sourceLabel } from './reasons.js';
import { normaliseAddress } from './select.js';

export function scopeNotes(
  desired: DesiredState,
  live: LiveState,
  index: LiveIndex,
  inScope: (site: Site) => boolean,
  targets: ReadonlySet<number> | undefined,
  book: NoteBook,
): void {
  for (const entry of live.unreadable) {
    const known = index.sites.get(entry.siteId)?.site;
    const site: Site = known ?? { id: entry.siteId, url: entry.url, name: '', status: 'disconnected' };
    if (!inScope(site)) continue;
    const message = `could not be read (${entry.code}: ${entry.message}); no actions planned`;
    book.addAbout({ kind: 'unreadable-site', message }, [site]);
  }
  const knownIds = new Set([...index.sites.keys(), ...index.unreadable.keys()]);
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
          ? !knownIds.has(matcher.id) && `site id ${matcher.id}`
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
    if (!knownIds.has(id))
      book.add({ kind: 'unknown-site', message: `target site id ${id} is not listed by the dashboard` });
  }
}

/**
 * Every selection of the desired state, with how a note names it: a site an ID or domain names
 * that the dashboard does not list is most often a typo, which would otherwise plan nothing
 * for it without a word.
 */
function namedSelections(desired: DesiredState): Array<[string, SiteSelection]> {
  return [
    ['desired state', desired.sites],
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
