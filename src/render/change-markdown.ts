/**
 * The head of a pull request's comment: what this change does to the plan, before the backlog.
 * One sentence naming the largest changes with the file:line that made them, then one row per
 * item and direction (enters, leaves, changes). It sits in the comment's head, which the size
 * cap never cuts, so what the author changed is shown whatever the backlog's size and order.
 */
import { firstSites, waveCell } from './item-cells.js';
import { citedPlaces, versionMove, versionRange } from './item-rows.js';
import { codeSpan, escapeMarkdown as esc } from './markdown-escape.js';
import type { ChangeRow, PlanComparison } from './plan-compare.js';
import { itemLabel } from './plan-words.js';

/** What the comment knows of the base: a comparison, or why there is none. */
export type ChangeView =
  | {
      comparison: PlanComparison;
      ref: string;
      commit: string;
      /** The base has no desired state at the config's path: the pull request adds it. */
      added?: boolean;
    }
  | { unavailable: string; ref: string };

/** Rows shown at most; a change wider than that is counted and left to the full plan. */
export const MAX_CHANGE_ROWS = 40;
/** Changes the lead sentence names; the table has them all. */
export const LEAD_PHRASES = 3;

export const n = (count: number): string => count.toLocaleString('en-US');
export const plural = (count: number, word: string, words = `${word}s`): string =>
  `${n(count)} ${count === 1 ? word : words}`;

/** The section's markdown lines (no trailing blank line). */
export function changeMarkdown(view: ChangeView): string[] {
  const against = `against ${codeSpan(view.ref)}`;
  if ('unavailable' in view) {
    return [
      `**This change:** not known: the base's desired state could not be read (${esc(view.unavailable, 600)}). The whole plan follows.`,
    ];
  }
  const where = `${against} (merge base ${codeSpan(view.commit.slice(0, 7))})`;
  const { comparison } = view;
  if (comparison.same) {
    const why = comparison.sameDesired
      ? 'the desired state is the same as the base’s'
      : 'the desired state differs from the base’s, but no action enters, leaves or changes';
    return [`**This change:** nothing, ${where}: ${why}. The plan below is the backlog.`];
  }
  const rows = comparison.rows;
  const phrases = rows.slice(0, LEAD_PHRASES).map((row) => changePhrase(row, esc));
  const more =
    rows.length > LEAD_PHRASES ? `; ${plural(rows.length - LEAD_PHRASES, 'more change')} below` : '';
  const added = view.added ? ' The base has no desired state at this path: every action is new.' : '';
  const lines = [
    `**This change** ${where}: ${phrases.join('; ')}${more}.${added}`,
    '',
    '| change | item | versions | sites | wave | rule or policy | first sites |',
    '|---|---|---|---:|---|---|---|',
    ...rows.slice(0, MAX_CHANGE_ROWS).map(changeRow),
  ];
  if (rows.length > MAX_CHANGE_ROWS) {
    lines.push(
      '',
      `…and ${plural(rows.length - MAX_CHANGE_ROWS, 'more item change')}: run ${codeSpan(`svc-gitops plan --compare-to ${view.ref}`)} to see them all.`,
    );
  }
  return lines;
}

/**
 * `6,288 sites ignore plugin woocommerce/woocommerce.php (svc-gitops.yaml:12)`, with the
 * dashboard's and the YAML's strings passed through `clean` for the medium.
 */
export function changePhrase(row: ChangeRow, clean: (value: string) => string): string {
  const item = clean(itemLabel(row));
  const sites = row.siteIds.length;
  const places = citedPlaces(row.reasons);
  const cite = places.length > 0 ? ` (${clean(places.slice(0, 2).join(', '))})` : '';
  if (row.direction === 'changes')
    return `${plural(sites, `planned ${item} update`)} change${sites === 1 ? 's' : ''} (now ${clean(versionMove(row))})${cite}`;
  if (row.op === 'update') {
    const verb = row.direction === 'enters' ? 'enter' : 'leave';
    return `${plural(sites, `pending ${item} update`)} ${verb}${sites === 1 ? 's' : ''} the plan${row.direction === 'enters' ? cite : ''}`;
  }
  if (row.direction === 'enters')
    return `${plural(sites, 'site')} ${row.op}${sites === 1 ? 's' : ''} ${item}${cite}`;
  return `${plural(sites, `planned ${row.op} of ${item}`, `planned ${row.op}s of ${item}`)} leave${sites === 1 ? 's' : ''} the plan`;
}

const LABEL: Record<ChangeRow['direction'], string> = {
  enters: 'enters',
  leaves: 'leaves',
  changes: 'changes',
};
const MARK = { update: '~ update', ignore: '+ ignore', unignore: '- unignore' } as const;

function changeRow(row: ChangeRow): string {
  const move =
    row.direction === 'changes' && row.baseTo
      ? `${versionMove(row)} (was → ${versionRange(row.baseTo)})`
      : versionMove(row);
  const reasons = row.reasons.slice(0, 2).map((reason) => esc(reason));
  if (row.reasons.length > 2) reasons.push(`+${row.reasons.length - 2} more`);
  const rule = `${row.direction === 'leaves' ? 'was: ' : ''}${reasons.join('<br>')}`;
  return `| ${LABEL[row.direction]}: ${MARK[row.op]} | ${esc(itemLabel(row))} | ${esc(move)} | ${n(row.siteIds.length)} | ${waveCell(row.waves)} | ${rule} | ${firstSites(row)} |`;
}
