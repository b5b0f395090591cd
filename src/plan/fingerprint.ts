/**
 * A fingerprint is what a plan saw of one site: its status and, for each touched item, the
 * pending version moves and the live ignores. Apply re-reads the touched sites and refuses a
 * plan whose fingerprints no longer match, so a plan never runs against a world that moved.
 * Facts about items the plan does not touch are left out on purpose: an unrelated new update
 * must not invalidate a reviewed plan.
 */
import type { ItemRef, LiveState } from '../types.js';
import { sha256Hex } from './canonical.js';
import { indexLiveState, type LiveIndex } from './live-index.js';
import { compareText } from './order.js';

export function fingerprintIndexed(index: LiveIndex, siteId: number, items: readonly ItemRef[]): string {
  const facts = index.sites.get(siteId);
  // A site's touched items are few: a scan beats building keys for a set.
  const touched = (kind: string, slug: string): boolean =>
    items.some((item) => item.kind === kind && item.slug === slug);
  const status = index.unreadable.has(siteId) ? 'unreadable' : (facts?.site.status ?? 'missing');
  const pending = (facts?.pending ?? [])
    .filter((update) => touched(update.kind, update.slug))
    .map((update) => [update.kind, update.slug, update.from, update.to].join('\u0000'))
    .sort(compareText);
  const ignores = (facts?.ignores ?? [])
    .filter((ignore) => touched(ignore.kind, ignore.slug) || ignore.origin === 'site-flag')
    .map((ignore) => {
      const versions = ignore.versions === 'all' ? 'all' : [...ignore.versions].sort(compareText).join(',');
      return [ignore.kind, ignore.slug, ignore.origin, versions].join('\u0000');
    })
    .sort(compareText);
  const url = facts?.site.url ?? '';
  // Keys in code-unit order and only strings inside: JSON.stringify writes the canonical JSON
  // without the general machinery (the golden plans pin these bytes).
  return `sha256:${sha256Hex(JSON.stringify({ ignores, pending, status, url }))}`;
}

/**
 * Fingerprint of `siteId` for `items`, from a whole LiveState. It indexes `live` on each call;
 * to fingerprint many sites of one large state, index once and call `fingerprintIndexed`.
 */
export function fingerprintSite(live: LiveState, siteId: number, items: ItemRef[]): string {
  return fingerprintIndexed(indexLiveState(live), siteId, items);
}
