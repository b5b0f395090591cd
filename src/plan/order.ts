/**
 * The stated order of a plan. Actions: ignores, then unignores, then updates by wave; within
 * each by site id, kind (core, plugin, theme, translation), slug. Notes (one per kind, item and
 * message: see notes.ts): by kind of note, then item (notes without one first), then message. Text compares by code unit (never by locale),
 * so every machine prints the same plan.
 */
import { compareCodeUnits } from '../errors.js';
import type { Action, ActionOp, ItemKind, PlanNote, PlanNoteKind } from '../types.js';

const NOTE_ORDER: readonly PlanNoteKind[] = [
  'needs-approval',
  'unknown-site',
  'unreadable-site',
  'offline-site',
  'held',
  'waiting',
  'cannot-ignore',
  'cannot-unignore',
  'unmanaged-ignore',
  'hidden-update',
  'flags-unseen',
];

/** Code-unit order (never the locale's): the one order every text is sorted in. */
export const compareText = compareCodeUnits;

const KIND_RANK: Record<ItemKind, number> = { core: 0, plugin: 1, theme: 2, translation: 3 };
const OP_RANK: Record<ActionOp, number> = { ignore: 0, unignore: 1, update: 2 };

function kindRank(kind: string): number {
  return Object.hasOwn(KIND_RANK, kind) ? KIND_RANK[kind as ItemKind] : 4;
}

export function compareKinds(a: ItemKind, b: ItemKind): number {
  if (a === b) return 0;
  // A kind the ranks do not know (never from a validated read) still gets a total order: after
  // the known ones, by name.
  return kindRank(a) - kindRank(b) || compareText(a, b);
}

/** `waveRank` maps an update's wave name to its position (the implicit last wave included). */
export function compareActions(waveRank: (wave: string | undefined) => number) {
  return (a: Action, b: Action): number =>
    OP_RANK[a.op] - OP_RANK[b.op] ||
    (a.op === 'update' ? waveRank(a.wave) - waveRank(b.wave) : 0) ||
    a.site_id - b.site_id ||
    compareKinds(a.kind, b.kind) ||
    compareText(a.slug, b.slug) ||
    compareText(a.from ?? '', b.from ?? '') ||
    compareText(a.to ?? '', b.to ?? '');
}

export function compareNotes(a: PlanNote, b: PlanNote): number {
  return (
    NOTE_ORDER.indexOf(a.kind) - NOTE_ORDER.indexOf(b.kind) ||
    (a.item && b.item
      ? compareKinds(a.item.kind, b.item.kind) || compareText(a.item.slug, b.item.slug)
      : 0) ||
    (a.item ? 1 : 0) - (b.item ? 1 : 0) ||
    compareText(a.message, b.message)
  );
}
