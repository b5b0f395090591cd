/**
 * Installed plugins and themes with no pending update, judged against the feed (read only with
 * `security.installed`): a version an advisory affects is vulnerable with no fix, since no
 * release the dashboard knows of moves it. Items with a pending update are judged through that
 * update (updates.ts); items whose updates the site ignores are left to it too, since an
 * ignored update may be the fix.
 */
import type { InstalledItem, LiveIgnore, PendingUpdate, PlanNote } from '../types.js';
import { describeItem } from './reasons.js';
import type { SecurityIndex } from './security.js';
import type { SecurityBook } from './security-section.js';

export interface InstalledJudge {
  /** Judges one site's installed items; notes go to `note`. */
  site(
    siteId: number,
    pending: readonly PendingUpdate[],
    ignores: readonly LiveIgnore[],
    note: (note: Omit<PlanNote, 'site_ids'>) => void,
  ): void;
}

export function createInstalledJudge(
  installed: readonly InstalledItem[] | undefined,
  index: SecurityIndex,
  book: SecurityBook,
): InstalledJudge | undefined {
  if (!installed) return undefined;
  const bySite = new Map<number, InstalledItem[]>();
  for (const item of installed) {
    const list = bySite.get(item.siteId);
    if (list) list.push(item);
    else bySite.set(item.siteId, [item]);
  }
  const notes = new Map<string, Omit<PlanNote, 'site_ids'>>();
  return {
    site(siteId, pending, ignores, note) {
      const items = bySite.get(siteId);
      if (!items) return;
      const covered = new Set<string>();
      for (const update of pending) covered.add(`${update.kind} ${update.slug}`);
      for (const ignore of ignores) covered.add(`${ignore.kind} ${ignore.slug}`);
      for (const item of items) {
        if (covered.has(`${item.kind} ${item.slug}`) || covered.has(`${item.kind} *`)) continue;
        const update: PendingUpdate = {
          siteId,
          kind: item.kind,
          slug: item.slug,
          name: item.name,
          from: item.version,
          to: '',
        };
        const verdict = index.judge(update);
        if (!verdict || verdict.unfixed.length === 0) continue;
        book.add(update, verdict.unfixed, 'no-fix', siteId);
        const key = `${item.kind} ${item.slug}`;
        let text = notes.get(key);
        if (!text) {
          text = {
            kind: 'vulnerable',
            item: { kind: item.kind, slug: item.slug },
            message: `${describeItem(update)} is on a vulnerable version and no pending update moves it (see the security section)`,
          };
          notes.set(key, text);
        }
        note(text);
      }
    },
  };
}
