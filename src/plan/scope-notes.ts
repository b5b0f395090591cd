/**
 * Plan-wide notes about scope: sites that could not be read, sites named by id or domain (in
 * `desired.sites` or `--target`) that the dashboard does not know.
 */
import type { DesiredState, LiveState, Site } from '../types.js';
import type { LiveIndex } from './live-index.js';
import type { NoteBook } from './notes.js';
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
  // Only a domain matcher needs the addresses; most selections have none.
  const knownAddresses = desired.sites.include.some((matcher) => matcher.type === 'domain')
    ? new Set(
        [...live.sites.map((site) => site.url), ...live.unreadable.map((entry) => entry.url)].map(
          normaliseAddress,
        ),
      )
    : new Set<string>();
  for (const matcher of desired.sites.include) {
    if (matcher.type === 'id' && !knownIds.has(matcher.id)) {
      book.add({
        kind: 'unknown-site',
        message: `desired state selects site id ${matcher.id}, which the dashboard does not list`,
      });
    } else if (matcher.type === 'domain' && !knownAddresses.has(normaliseAddress(matcher.domain))) {
      book.add({
        kind: 'unknown-site',
        message: `desired state selects domain ${matcher.domain}, which the dashboard does not list`,
      });
    }
  }
  for (const id of targets ?? []) {
    if (!knownIds.has(id))
      book.add({ kind: 'unknown-site', message: `target site id ${id} is not listed by the dashboard` });
  }
}
