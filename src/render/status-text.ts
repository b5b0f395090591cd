/**
 * `svc-gitops status` for a terminal: every group in order with its totals, one line per row
 * (item, versions, why, until when, sites with the first few named). Dashboard-provided text
 * (names, addresses, messages quoting them) goes through safeText.
 */
import type { StatusReport, StatusRow } from '../types.js';
import { haltText } from './rollout-halt.js';
import { safeText } from './safe-text.js';
import { count, groupTotals, STATUS_TITLES } from './status-words.js';

export function renderStatusText(report: StatusReport): string {
  const lines: string[] = [];
  if (report.rollout_halt) lines.push(haltText(report.rollout_halt), '');
  lines.push(
    `Status of ${safeText(report.dashboard)} (plan ${report.plan_id.slice(0, 12)}, ${report.created_at})`,
  );
  if (report.last_apply) {
    const last = report.last_apply;
    lines.push(
      `Last apply: ${last.time} (plan ${last.plan_id.slice(0, 12)}): ${count(last.records)} actions, ${count(last.failed)} failed`,
    );
  }
  for (const group of report.groups) {
    lines.push('');
    if (group.rows.length === 0) {
      lines.push(`${STATUS_TITLES[group.state]}: none`);
      continue;
    }
    lines.push(`${STATUS_TITLES[group.state]}: ${groupTotals(group)}`);
    for (const row of group.rows) lines.push(...rowLines(row));
  }
  return `${lines.join('\n')}\n`;
}

function rowLines(row: StatusRow): string[] {
  const item = row.kind === 'core' ? 'core' : `${row.kind} ${safeText(row.slug)}`;
  const versions = row.versions === '' ? '' : ` ${safeText(row.versions)}`;
  const lines = [`  ${item}${versions}: ${safeText(row.detail, 600)}`];
  if (row.when !== undefined) lines.push(`    until ${safeText(row.when)}`);
  const named = row.first_sites.map((url) => safeText(url)).join(', ');
  const more =
    row.sites > row.first_sites.length ? `, … ${count(row.sites - row.first_sites.length)} more` : '';
  lines.push(`    ${count(row.sites)} site${row.sites === 1 ? '' : 's'}${named ? `: ${named}${more}` : ''}`);
  return lines;
}
