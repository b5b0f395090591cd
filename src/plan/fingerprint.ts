/**
 * A fingerprint is what a plan saw of one site: its status and, for each touched item, the
 * pending version moves and the live ignores. Apply re-reads the touched sites and refuses a
 * plan whose fingerprints no longer match, so a plan never runs against a world that moved.
 * Facts about items the plan does not touch are left out on purpose: an unrelated new update
 * must not invalidate a reviewed plan.
 */

import { hash } from 'node:crypto';
import type { ItemRef, LiveState } from '../types.js';
import { encodeVersions, indexLiveState, type LiveIndex, type LiveSiteFacts } from './live-index.js';

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
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as ItemRef;
    if (item.slug === slug && item.kind === kind) return true;
  }
  return false;
}

/** Whether any of the lists touches the item (the planner's ignore, unignore and update lists). */
function touchesAny(lists: ReadonlyArray<readonly ItemRef[]>, kind: string, slug: string): boolean {
  for (let i = 0; i < lists.length; i++) if (touches(lists[i] as readonly ItemRef[], kind, slug)) return true;
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
  return fingerprintOfFacts(facts, status, [items]);
}

/**
 * The fingerprint of a site whose facts the caller holds already (createPlan): the items it
 * touches given as several lists (their union), so no list of them all is built per site.
 */
export function fingerprintOfFacts(
  facts: LiveSiteFacts | undefined,
  status: string,
  touched: ReadonlyArray<readonly ItemRef[]>,
): string {
  let pending = '';
  let pendingCount = 0;
  if (facts !== undefined) {
    const list = facts.pending;
    for (let i = 0; i < list.length; i++) {
      const { kind, slug, from, to } = list[i] as LiveSiteFacts['pending'][number];
      if (!touchesAny(touched, kind, slug)) continue;
      pending += `${kindField(kind)}${slug.length}:${slug}${from.length}:${from}${to.length}:${to}`;
      pendingCount++;
    }
  }
  let ignores = '';
  let ignoreCount = 0;
  if (facts !== undefined) {
    const list = facts.ignores;
    for (let i = 0; i < list.length; i++) {
      const ignore = list[i] as LiveSiteFacts['ignores'][number];
      const { kind, slug, origin } = ignore;
      if (origin !== 'site-flag' && !touchesAny(touched, kind, slug)) continue;
      ignores += `${kindField(kind)}${field(slug)}${field(origin)}${field(encodeVersions(ignore.versions))}`;
      ignoreCount++;
    }
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
