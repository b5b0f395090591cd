/**
 * Assembles a markdown document under a hard character cap. The head is always kept. When
 * everything fits, everything is shown. Otherwise room for a truncation note is reserved and
 * the rows are shared out: first every section gets up to an equal share of the room (so a
 * huge first section cannot starve the rest), then what is left goes to sections in order.
 * A section is only opened when its frame and first row fit, so every emitted table, fence
 * and <details> is closed. Rows are rendered lazily: a plan of 500,000 actions costs only the
 * rows that can be shown.
 */

export interface Section {
  open: string[];
  close: string[];
  rowCount: number;
  row(index: number): string;
}

export interface BudgetResult {
  text: string;
  omittedRows: number;
  totalRows: number;
}

const size = (lines: readonly string[]): number => lines.reduce((total, line) => total + line.length + 1, 0);
const frameSize = (section: Section): number => size(section.open) + size(section.close);

/** Rows rendered at most once per assembly. */
function cachedRows(section: Section): (index: number) => string {
  const cache: string[] = [];
  return (index) => {
    cache[index] ??= section.row(index);
    return cache[index];
  };
}

/** True when every row of every section fits into `room` (stops rendering once it cannot). */
function allFit(sections: readonly Section[], rows: Array<(index: number) => string>, room: number): boolean {
  let used = 0;
  for (const [index, section] of sections.entries()) {
    if (section.rowCount === 0) continue;
    used += frameSize(section);
    for (let i = 0; i < section.rowCount && used <= room; i++) used += rows[index]!(i).length + 1;
    if (used > room) return false;
  }
  return true;
}

/** How many leading rows of each section fit into `room`, equal shares first. */
function shareRows(
  sections: readonly Section[],
  rows: Array<(index: number) => string>,
  room: number,
): number[] {
  const shown = sections.map(() => 0);
  let left = room;
  const grant = (index: number, limit: number): void => {
    const section = sections[index]!;
    let spent = 0;
    while (shown[index]! < section.rowCount) {
      const next = shown[index]!;
      const cost = rows[index]!(next).length + 1 + (next === 0 ? frameSize(section) : 0);
      if (spent + cost > limit || cost > left) return;
      spent += cost;
      left -= cost;
      shown[index] = next + 1;
    }
  };
  const nonEmpty = sections.flatMap((section, index) => (section.rowCount > 0 ? [index] : []));
  const share = Math.floor(room / Math.max(1, nonEmpty.length));
  for (const index of nonEmpty) grant(index, share);
  for (const index of nonEmpty) grant(index, Number.POSITIVE_INFINITY);
  return shown;
}

export function assembleWithinCap(
  head: string[],
  sections: readonly Section[],
  maxChars: number,
  truncationNote: (omitted: number, total: number) => string[],
): BudgetResult {
  const rows = sections.map(cachedRows);
  const totalRows = sections.reduce((total, section) => total + section.rowCount, 0);
  const room = maxChars - size(head);
  let shown = sections.map((section) => section.rowCount);
  if (!allFit(sections, rows, room)) {
    // Room for the note as it will read: its counts change its length, so share the rows out
    // again whenever the note for what is left out needs more than was reserved (it converges:
    // the reserve only grows, up to the longest note).
    let reserve = size(truncationNote(totalRows, totalRows));
    for (;;) {
      shown = shareRows(sections, rows, room - reserve);
      const omitted = totalRows - shown.reduce((total, count) => total + count, 0);
      const needed = size(truncationNote(omitted, totalRows));
      if (needed <= reserve) break;
      reserve = needed;
    }
  }
  const lines = [...head];
  sections.forEach((section, index) => {
    if (shown[index]! === 0) return;
    lines.push(...section.open);
    for (let i = 0; i < shown[index]!; i++) lines.push(rows[index]!(i));
    lines.push(...section.close);
  });
  const omittedRows = totalRows - shown.reduce((total, count) => total + count, 0);
  if (omittedRows > 0) lines.push(...truncationNote(omittedRows, totalRows));
  return { text: `${lines.join('\n')}\n`, omittedRows, totalRows };
}
