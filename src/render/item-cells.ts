/** Table cells of a row by item in markdown: its waves and its first sites. */
import { FIRST_ROW_SITES, type ItemRow } from './item-rows.js';
import { escapeMarkdown as esc, markdownUrl } from './markdown-escape.js';

const n = (count: number): string => count.toLocaleString('en-US');

/** Up to three waves by name, the rest counted. */
export function waveCell(waves: readonly string[]): string {
  const shown = waves.slice(0, 3).map((wave) => esc(wave));
  if (waves.length > 3) shown.push(`+${waves.length - 3}`);
  return shown.join(', ');
}

/** The first sites, one a line (`<br>`), so the column wraps between addresses. */
export function firstSites(row: Pick<ItemRow, 'siteIds' | 'firstUrls'>): string {
  const shown = row.siteIds
    .slice(0, FIRST_ROW_SITES)
    .map((id, i) => `${id} ${markdownUrl(row.firstUrls[i] ?? '')}`);
  if (row.siteIds.length > FIRST_ROW_SITES) shown.push(`… ${n(row.siteIds.length - FIRST_ROW_SITES)} more`);
  return shown.join('<br>');
}
