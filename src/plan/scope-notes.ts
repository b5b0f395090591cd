/**
 * Plan-wide notes about scope: sites that could not be read, sites named by id or domain (in
 * `desired.sites` or `--target`) that the dashboard does not know, and global ignores that the
 * desired state does not mention (reported once per item, not once per site: the dashboard
 * repeats global ignores on every site).
 */
import type { DesiredState, LiveIgnore, LiveState, PlanNote, Site } from '../types.js';
import { itemKey, type LiveIndex } from './live-index.js';
import { describeItem } from './reasons.js';
import { normaliseAddress } from './select.js';

export function scopeNotes(
  desired: DesiredState,
  live: LiveState,
  index: LiveIndex,
  inScope: (site: Site) => boolean,
  targets: ReadonlySet<number> | undefined,
): PlanNote[] {
  const notes: PlanNote[] = [];
  for (const entry of live.unreadable) {
    const known = index.sites.get(entry.siteId)?.site;
    const site: Site = known ?? { id: entry.siteId, url: entry.url, name: '', status: 'disconnected' };
    if (!inScope(site)) continue;
    const message = `site could not be read (${entry.code}: ${entry.message}); it gets no actions`;
    notes.push({ kind: 'unreadable-site', site_id: entry.siteId, site_url: entry.url, message });
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
      notes.push({
        kind: 'unknown-site',
        message: `desired state selects site id ${matcher.id}, which the dashboard does not list`,
      });
    } else if (matcher.type === 'domain' && !knownAddresses.has(normaliseAddress(matcher.domain))) {
      notes.push({
        kind: 'unknown-site',
        message: `desired state selects domain ${matcher.domain}, which the dashboard does not list`,
      });
    }
  }
  for (const id of targets ?? []) {
    if (!knownIds.has(id))
      notes.push({ kind: 'unknown-site', message: `target site id ${id} is not listed by the dashboard` });
  }
  return notes;
}

export function globalIgnoreNotes(unmanaged: readonly LiveIgnore[]): PlanNote[] {
  const sitesByItem = new Map<string, { ignore: LiveIgnore; sites: Set<number> }>();
  for (const ignore of unmanaged) {
    const key = itemKey(ignore.kind, ignore.slug);
    const entry = sitesByItem.get(key) ?? { ignore, sites: new Set<number>() };
    entry.sites.add(ignore.siteId);
    sitesByItem.set(key, entry);
  }
  return [...sitesByItem.values()].map(({ ignore, sites }) => {
    const item = { kind: ignore.kind, slug: ignore.slug };
    const count = `${sites.size} managed site${sites.size === 1 ? '' : 's'}`;
    const message = `global ignore of ${describeItem(item)} (on ${count}) is not in the desired state; it is listed alike on every site, so it is taken for the dashboard's global list, which svc-gitops never changes`;
    return { kind: 'unmanaged-ignore' as const, item, message };
  });
}
