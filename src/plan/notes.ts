/**
 * A plan's notes, merged: every note that says the same thing (kind, item and message) of
 * several sites is one note listing them all. A fleet repeats the same few facts on thousands
 * of sites (an unmanaged ignore, a held plugin); one line per site buried the rest and made
 * the plan larger than the read it came from. Messages must therefore never hold per-site
 * details: those go into the site list.
 */
import type { ItemRef, PlanNote } from '../types.js';
import { compareNotes } from './order.js';

type NoteText = Omit<PlanNote, 'site_ids' | 'site_urls'>;

export interface NoteBook {
  /** Records `note`, about the given site or sites (plan-wide when none). */
  add(note: NoteText, sites?: number | readonly number[]): void;
  /** Records `note` about sites named with their addresses (`site_urls`): sites without actions. */
  addAbout(note: NoteText, sites: ReadonlyArray<{ id: number; url: string }>): void;
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
  /** The one note of this kind, item and message. */
  const noteFor = ({ kind, item, message }: NoteText): PlanNote => {
    const same = notesOf(kind, item);
    let note = same.get(message);
    if (!note) {
      // Keys in code-unit order, as canonical JSON writes them.
      note = { ...(item ? { item: { kind: item.kind, slug: item.slug } } : {}), kind, message };
      same.set(message, note);
      all.push(note);
    }
    return note;
  };
  return {
    add(text, sites) {
      const note = noteFor(text);
      if (sites === undefined) return;
      // Addresses must stay in step with the ids: a note is recorded one way only.
      if (note.site_urls) throw new Error(`internal: note "${text.message}" is recorded with addresses`);
      if (typeof sites !== 'number') note.site_ids = note.site_ids ? note.site_ids.concat(sites) : [...sites];
      else if (note.site_ids) note.site_ids.push(sites);
      else note.site_ids = [sites];
    },
    addAbout(text, sites) {
      const note = noteFor(text);
      // Keys in code-unit order: site_ids before site_urls, both after message.
      note.site_ids = (note.site_ids ?? []).concat(sites.map((site) => site.id));
      note.site_urls = (note.site_urls ?? []).concat(sites.map((site) => site.url));
    },
    notes() {
      for (const note of all) {
        const ids = note.site_ids;
        if (!ids) continue;
        // Sites are usually added in ascending order; sort (and drop repeats) only when not.
        let ordered = true;
        for (let i = 1; i < ids.length && ordered; i++) ordered = ids[i - 1]! < ids[i]!;
        if (ordered) continue;
        const urls = note.site_urls;
        if (!urls) {
          note.site_ids = [...new Set(ids)].sort((a, b) => a - b);
          continue;
        }
        // A site given twice with two addresses keeps the lowest: the same whatever the order.
        const urlOf = new Map<number, string>();
        ids.forEach((id, i) => {
          const url = urls[i] as string;
          const known = urlOf.get(id);
          if (known === undefined || url < known) urlOf.set(id, url);
        });
        note.site_ids = [...urlOf.keys()].sort((a, b) => a - b);
        note.site_urls = note.site_ids.map((id) => urlOf.get(id) ?? '');
      }
      return [...all].sort(compareNotes);
    },
  };
}
