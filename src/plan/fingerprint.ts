/**
 * A fingerprint is what a plan saw of one site: its status and, for each touched item, the
 * pending version moves and the live ignores. Apply re-reads the touched sites and refuses a
 * plan whose fingerprints no longer match, so a plan never runs against a world that moved.
 * Facts about items the plan does not touch are left out on purpose: an unrelated new update
 * must not invalidate a reviewed plan.
 */

import { hash } from 'node:crypto';
import type { ItemRef, LiveState } from '../types.js';
import { indexLiveState, type LiveIndex } from './live-index.js';
import { compareText } from './order.js';

/** A field of a fact, length-prefixed: no value can run into the next, whatever it holds. */
function field(value: string): string {
  return `${value.length}:${value}`;
}

function touches(items: readonly ItemRef[], kind: string, slug: string): boolean {
  for (const item of items) if (item.kind === kind && item.slug === slug) return true;
  return false;
}

/** The facts, sorted (the dashboard's listing order must not change a fingerprint), one string. */
function sortedFacts(facts: readonly string[]): string {
  return facts.length < 2 ? (facts[0] ?? '') : [...facts].sort(compareText).join('');
}

export function fingerprintIndexed(index: LiveIndex, siteId: number, items: readonly ItemRef[]): string {
  const facts = index.sites.get(siteId);
  const status = index.unreadable.has(siteId) ? 'unreadable' : (facts?.site.status ?? 'missing');
  const pending: string[] = [];
  for (const update of facts?.pending ?? []) {
    if (!touches(items, update.kind, update.slug)) continue;
    pending.push(`${field(update.kind)}${field(update.slug)}${field(update.from)}${field(update.to)}`);
  }
  const ignores: string[] = [];
  for (const ignore of facts?.ignores ?? []) {
    if (ignore.origin !== 'site-flag' && !touches(items, ignore.kind, ignore.slug)) continue;
    const versions = ignore.versions === 'all' ? 'a' : `v${sortedFacts(ignore.versions.map(field))}`;
    ignores.push(`${field(ignore.kind)}${field(ignore.slug)}${field(ignore.origin)}${field(versions)}`);
  }
  const text = `${field(status)}${field(facts?.site.url ?? '')}p${pending.length}:${sortedFacts(pending)}i${ignores.length}:${sortedFacts(ignores)}`;
  // One-shot hash: a plan fingerprints thousands of sites, and a Hash object each cost as much
  // again. UTF-16 bytes: UTF-8 would turn every lone surrogate (a hostile slug) into U+FFFD.
  return `sha256:${hash('sha256', Buffer.from(text, 'utf16le'))}`;
}

/**
 * Fingerprint of `siteId` for `items`, from a whole LiveState. It indexes `live` on each call;
 * to fingerprint many sites of one large state, index once and call `fingerprintIndexed`.
 */
export function fingerprintSite(live: LiveState, siteId: number, items: ItemRef[]): string {
  return fingerprintIndexed(indexLiveState(live), siteId, items);
}
