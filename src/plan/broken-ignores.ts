/**
 * What a broken entry of a site's ignored listing (LiveState.broken) withholds. The safe side:
 * whether the items it may concern are ignored on that site is unknown, so no ignore, unignore
 * or update of them is planned there (an update could override an ignore someone set; an ignore
 * or unignore would be judged against a listing that lacks the entry). Everything else on the
 * site is known and planned as usual. Apply's re-check refuses a saved plan with such an action.
 */
import type { Action, BrokenIgnore, LiveState } from '../types.js';
import type { NoteBook } from './notes.js';
import { describeItem } from './reasons.js';

export function brokenBySite(live: Pick<LiveState, 'broken'>): Map<number, BrokenIgnore[]> {
  const bySite = new Map<number, BrokenIgnore[]>();
  for (const entry of live.broken ?? []) {
    const list = bySite.get(entry.siteId) ?? [];
    list.push(entry);
    bySite.set(entry.siteId, list);
  }
  return bySite;
}

/** The broken entry that withholds an action of this kind and slug, if any. */
export function withholding(
  broken: readonly BrokenIgnore[] | undefined,
  item: { kind: string; slug: string },
): BrokenIgnore | undefined {
  return broken?.find((b) => b.kind === item.kind && (b.slugs === undefined || b.slugs.includes(item.slug)));
}

/**
 * Removes from a site's action lists (in place) what its broken entries withhold, and notes each
 * entry on the site with the actions it withheld.
 */
export function withholdBroken(
  broken: readonly BrokenIgnore[] | undefined,
  site: { id: number; url: string },
  lists: readonly Action[][],
  book: NoteBook,
): void {
  if (broken === undefined) return;
  const withheld = new Map<BrokenIgnore, string[]>(broken.map((entry) => [entry, []]));
  for (const list of lists) {
    let kept = 0;
    for (const action of list) {
      const entry = withholding(broken, action);
      if (entry === undefined) list[kept++] = action;
      else withheld.get(entry)?.push(`${action.op} ${describeItem(action)}`);
    }
    list.length = kept;
  }
  for (const [entry, actions] of withheld) {
    const held = actions.length > 0 ? ` (${actions.length} withheld: ${actions.join(', ')})` : '';
    book.addAbout({ kind: 'unreadable-site', message: `${entry.code}: ${entry.message}${held}` }, [site]);
  }
}
