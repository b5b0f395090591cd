/** Fingerprints for every site the plan touches, keyed by site id in ascending order. */
import type { Action, ItemRef } from '../types.js';
import { fingerprintIndexed } from './fingerprint.js';
import type { LiveIndex } from './live-index.js';

export function collectFingerprints(index: LiveIndex, actions: readonly Action[]): Record<string, string> {
  const itemsBySite = new Map<number, ItemRef[]>();
  for (const action of actions) {
    const items = itemsBySite.get(action.site_id) ?? [];
    if (!items.some((item) => item.kind === action.kind && item.slug === action.slug)) {
      items.push({ kind: action.kind, slug: action.slug });
    }
    itemsBySite.set(action.site_id, items);
  }
  const fingerprints: Record<string, string> = {};
  for (const siteId of [...itemsBySite.keys()].sort((a, b) => a - b)) {
    fingerprints[String(siteId)] = fingerprintIndexed(index, siteId, itemsBySite.get(siteId) ?? []);
  }
  return fingerprints;
}
