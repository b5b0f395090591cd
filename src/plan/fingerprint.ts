/**
 * A fingerprint is what a plan saw of one site: its status and, for each touched item, the
 * pending version moves and the live ignores. Apply re-reads the touched sites and refuses a
 * plan whose fingerprints no longer match, so a plan never runs against a world that moved.
 * Facts about items the plan does not touch are left out on purpose: an unrelated new update
 * must not invalidate a reviewed plan.
 */

import { hash } from 'node:crypto';
import type { ItemRef, LiveState } from '../types.js';
import { encodeVersions, indexLiveState, type LiveIndex } from './live-index.js';

/** A field of a fact, length-prefixed: no value can run into the next, whatever it holds. */
function field(value: string): string {
  return `${value.length}:${value}`;
}

/** field(kind) of the known kinds, written once: every fact has one. */
const KIND_FIELDS = new Map(['core', 'plugin', 'theme', 'translation'].map((kind) => [kind, field(kind)]));

function kindField(kind: string): string {
  return KIND_FIELDS.get(kind) ?? field(kind);
}

function touches(items: readonly ItemRef[], kind: string, slug: string): boolean {
  // Slug first: it tells items apart far more often than the kind.
  for (const item of items) if (item.slug === slug && item.kind === kind) return true;
  return false;
}

/**
 * The site's status and address, then its touched pending updates and ignores, each list
 * counted and in the index's canonical order (so the dashboard's listing order cannot change
 * a fingerprint), every field length-prefixed: one string, hashed.
 */
export function fingerprintIndexed(index: LiveIndex, siteId: number, items: readonly ItemRef[]): string {
  const facts = index.sites.get(siteId);
  const status = index.unreadable.has(siteId) ? 'unreadable' : (facts?.site.status ?? 'missing');
  let pending = '';
  let pendingCount = 0;
  for (const { kind, slug, from, to } of facts?.pending ?? []) {
    if (!touches(items, kind, slug)) continue;
    pending += `${kindField(kind)}${slug.length}:${slug}${from.length}:${from}${to.length}:${to}`;
    pendingCount++;
  }
  let ignores = '';
  let ignoreCount = 0;
  for (const ignore of facts?.ignores ?? []) {
    const { kind, slug, origin } = ignore;
    if (origin !== 'site-flag' && !touches(items, kind, slug)) continue;
    ignores += `${kindField(kind)}${field(slug)}${field(origin)}${field(encodeVersions(ignore.versions))}`;
    ignoreCount++;
  }
  const text = `${field(status)}${field(facts?.site.url ?? '')}p${pendingCount}:${pending}i${ignoreCount}:${ignores}`;
  return `sha256:${sha256OfText(text)}`;
}

/** A byte UTF-8 never holds: it marks the other encoding, so the two can never collide. */
const UTF16_MARK = Buffer.from([0xff]);

/**
 * sha256 of the text's UTF-8 bytes. A text with a lone surrogate (a hostile slug) has none, so
 * it is hashed as UTF-16 after a byte UTF-8 never holds (UTF-8 would turn every lone surrogate
 * into U+FFFD, and two texts into one fingerprint). One-shot: a plan fingerprints thousands of
 * sites, and a Hash object each would cost as much again.
 */
function sha256OfText(text: string): string {
  if ((text as unknown as { isWellFormed(): boolean }).isWellFormed()) return hash('sha256', text);
  return hash('sha256', Buffer.concat([UTF16_MARK, Buffer.from(text, 'utf16le')]));
}

/**
 * Fingerprint of `siteId` for `items`, from a whole LiveState. It indexes `live` on each call;
 * to fingerprint many sites of one large state, index once and call `fingerprintIndexed`.
 */
export function fingerprintSite(live: LiveState, siteId: number, items: ItemRef[]): string {
  return fingerprintIndexed(indexLiveState(live), siteId, items);
}
