import { type Action, FLAG_SLUG, type LiveState, type PendingUpdate, type UpdatePolicy } from '../types.js';
import type { NoteBook } from './notes.js';

/**
 * What the site-wide "ignore every update of this kind" flags hide (dashboard-facts §5): every
 * listing leaves those updates out, so the plan says so instead of silently planning nothing.
 */
export interface HiddenUpdates {
  /** Notes one site's hidden updates; `policiesOfSite[i]`: policy i selects the site. */
  note(
    siteId: number,
    policiesOfSite: readonly boolean[],
    unignores: readonly Action[],
    book: NoteBook,
  ): void;
}

export function hiddenUpdates(live: LiveState, policies: readonly UpdatePolicy[]): HiddenUpdates {
  const bySite = new Map<number, PendingUpdate[]>();
  for (const update of live.hidden ?? []) {
    const list = bySite.get(update.siteId) ?? [];
    list.push(update);
    bySite.set(update.siteId, list);
  }
  const coreFlagged = new Set(
    live.ignores.filter((i) => i.origin === 'site-flag' && i.kind === 'core').map((i) => i.siteId),
  );
  const takesCore = policies.map((policy) => policy.kinds.length === 0 || policy.kinds.includes('core'));
  return {
    note(siteId, policiesOfSite, unignores, book) {
      const clears = (kind: Action['kind']) => unignores.some((a) => a.kind === kind && a.slug === FLAG_SLUG);
      for (const update of bySite.get(siteId) ?? []) {
        const next = clears(update.kind)
          ? 'this plan clears the flag, so the next plan can update it'
          : 'clear the flag with site_flags in an ignore rule to let policies update it';
        const message = `pending ${update.kind} ${update.slug} ${update.from} → ${update.to} is hidden by the site-wide flag ignoring every ${update.kind} update; ${next}`;
        book.add({ kind: 'hidden-update', item: { kind: update.kind, slug: update.slug }, message }, siteId);
      }
      // No listing and no site ability shows a core version behind the flag (get-site-v1 gives
      // the installed version only), so a pending core update cannot be named: the note says
      // that the flag hides whatever there is, where a policy would update core on the site.
      if (!coreFlagged.has(siteId) || !policiesOfSite.some((selected, i) => selected && takesCore[i])) return;
      const next = clears('core')
        ? 'this plan clears the flag, so the next plan shows a pending core update, if any'
        : 'clear the flag with site_flags in an ignore rule to let policies update core';
      const message = `core updates are hidden by the site-wide flag ignoring every core update: the dashboard shows no pending core version behind it, so whether one is pending is unknown; ${next}`;
      book.add({ kind: 'hidden-update', item: { kind: 'core', slug: FLAG_SLUG }, message }, siteId);
    },
  };
}
