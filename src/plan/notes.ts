/**
 * A plan's notes, merged: every note that says the same thing (kind, item and message) of
 * several sites is one note listing them all. A fleet repeats the same few facts on thousands
 * of sites (an unmanaged ignore, a held plugin); one line per site buried the rest and made
 * the plan larger than the read it came from. Messages must therefore never hold per-site
 * details: those go into the site list.
 */
import type { ItemRef, PlanNote } from '../types.js';
import { compareNotes } from './order.js';

export interface NoteBook {
  /** Records `note`, about the given site or sites (plan-wide when none). */
  add(note: Omit<PlanNote, 'site_ids'>, sites?: number | readonly number[]): void;
  /** Every note once, in the stated order, site lists ascending. */
  notes(): PlanNote[];
}

function entry<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

export function createNoteBook(): NoteBook {
  // kind → item ("" for none) → message → note: nested maps, so no key string is built per add.
  const byKind = new Map<string, Map<string, Map<string, PlanNote>>>();
  const all: PlanNote[] = [];
  const notesOf = (kind: string, item: ItemRef | undefined): Map<string, PlanNote> => {
    const byItem = entry(byKind, kind, () => new Map<string, Map<string, PlanNote>>());
    return entry(byItem, item ? `${item.kind}:${item.slug}` : '', () => new Map<string, PlanNote>());
  };
  return {
    add({ kind, item, message }, sites) {
      const same = notesOf(kind, item);
      let note = same.get(message);
      if (!note) {
        // Keys in code-unit order, as canonical JSON writes them.
        note = { ...(item ? { item: { kind: item.kind, slug: item.slug } } : {}), kind, message };
        same.set(message, note);
        all.push(note);
      }
      if (sites === undefined) return;
      if (typeof sites !== 'number') note.site_ids = note.site_ids ? note.site_ids.concat(sites) : [...sites];
      else if (note.site_ids) note.site_ids.push(sites);
      else note.site_ids = [sites];
    },
    notes() {
      for (const note of all) {
        const ids = note.site_ids;
        if (!ids) continue;
        // Sites are usually added in ascending order; sort (and drop repeats) only when not.
        let ordered = true;
        for (let i = 1; i < ids.length && ordered; i++) ordered = ids[i - 1]! < ids[i]!;
        if (!ordered) note.site_ids = [...new Set(ids)].sort((a, b) => a - b);
      }
      return [...all].sort(compareNotes);
    },
  };
}
