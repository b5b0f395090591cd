/**
 * What a change does to the plan, for a terminal (`plan --compare-to REF`): the lead sentence,
 * then one line per item and direction. Every name passes safeText, as in the plan's text.
 */

import type { ChangeView } from './change-markdown.js';
import { changePhrase, LEAD_PHRASES, plural } from './change-markdown.js';
import { versionMove, versionRange } from './item-rows.js';
import { itemLabel, MARKERS } from './plan-words.js';
import { safeText } from './safe-text.js';

export function changeText(view: ChangeView): string {
  if ('unavailable' in view) {
    return `This change: not known: the base's desired state could not be read (${safeText(view.unavailable, 600)}).\n\n`;
  }
  const where = `against ${safeText(view.ref)} (merge base ${view.commit.slice(0, 7)})`;
  const { comparison } = view;
  if (comparison.same) {
    const why = comparison.sameDesired
      ? 'the desired state is the same as the base’s'
      : 'the desired state differs from the base’s, but no action enters, leaves or changes';
    return `This change: nothing, ${where}: ${why}. The plan below is the backlog.\n\n`;
  }
  const { rows } = comparison;
  const clean = (value: string) => safeText(value);
  const phrases = rows.slice(0, LEAD_PHRASES).map((row) => changePhrase(row, clean));
  const more =
    rows.length > LEAD_PHRASES ? `; ${plural(rows.length - LEAD_PHRASES, 'more change')} below` : '';
  const lines = [`This change ${where}: ${phrases.join('; ')}${more}.`];
  if (view.added) lines.push('The base has no desired state at this path: every action is new.');
  for (const row of rows) {
    const move =
      row.direction === 'changes' && row.baseTo
        ? `${versionMove(row)} (was → ${versionRange(row.baseTo)})`
        : versionMove(row);
    const why = `${row.direction === 'leaves' ? 'was: ' : ''}${row.reasons.slice(0, 2).map(clean).join('; ')}${row.reasons.length > 2 ? `; +${row.reasons.length - 2} more` : ''}`;
    lines.push(
      `  ${row.direction.padEnd(7)} ${MARKERS[row.op]} ${row.op.padEnd(8)} ${safeText(itemLabel(row))}${move ? ` ${safeText(move)}` : ''} on ${plural(row.siteIds.length, 'site')}${row.waves.length > 0 ? ` (wave ${row.waves.map(clean).join(', ')})` : ''}: ${why}`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}
