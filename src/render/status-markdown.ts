/**
 * The status as markdown: the body of the dashboard issue (`status --issue`) and
 * `status --format markdown`. A totals table comes first and every group keeps its heading and
 * totals whatever the size; rows are shared out under `maxChars` (every group gets up to an
 * equal share first, so one huge group cannot starve the rest, then the rest in order), and a
 * group whose rows did not all fit ends with a "… N more rows" line. Rows are rendered lazily,
 * so a 10,000-site fleet costs only the rows that can be shown.
 */
import type { StatusGroup, StatusReport, StatusRow } from '../types.js';
import { DEFAULT_BODY_BUDGET } from './comment-budget.js';
import { codeSpan, escapeMarkdown as esc, linkTarget, markdownUrl } from './markdown-escape.js';
import { haltMarkdown } from './rollout-halt.js';
import { count, groupTotals, STATUS_TITLES } from './status-words.js';

export interface StatusMarkdownOptions {
  /** The whole document stays at or under this many characters (default: GitHub's body budget less a marker's room). */
  maxChars?: number;
  runUrl?: string | undefined;
  /** Where the status was planned from (`svc-gitops.yaml`), shown in the head. */
  configKey?: string | undefined;
}

const TABLE_HEAD = ['| Item | Versions | Why | Until | Sites |', '|---|---|---|---|---|'];
/** Characters of a row's reason shown in a cell. */
const DETAIL_MAX = 400;

export function renderStatusMarkdown(report: StatusReport, options: StatusMarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? DEFAULT_BODY_BUDGET - 1_000;
  const head = headLines(report, options);
  const shown = report.groups.filter((group) => group.rows.length > 0);
  const frames = shown.map((group) => frameLines(group));
  const rows = shown.map((group) => lazyRows(group.rows));
  // Every frame and its widest "more" line are kept: the rows share what is left.
  const fixed =
    size(head) +
    frames.reduce((total, frame, i) => total + size(frame) + moreLine(shown[i]!, 0).length + 2, 0);
  const counts = shareRows(shown, rows, maxChars - fixed);
  const lines = [...head];
  shown.forEach((group, i) => {
    lines.push(...frames[i]!);
    for (let r = 0; r < counts[i]!; r++) lines.push(rows[i]!(r));
    if (counts[i]! < group.rows.length) lines.push('', moreLine(group, group.rows.length - counts[i]!));
  });
  if (shown.length === 0)
    lines.push('', 'Nothing is pending, waiting, held, quarantined, failed or vulnerable.');
  return `${lines.join('\n')}\n`;
}

function headLines(report: StatusReport, options: StatusMarkdownOptions): string[] {
  const lines: string[] = [];
  if (report.rollout_halt) lines.push(haltMarkdown(report.rollout_halt), '');
  lines.push(`### svc-gitops status of ${codeSpan(report.dashboard)}`, '');
  const from = options.configKey ? ` from ${codeSpan(options.configKey)}` : '';
  const run = options.runUrl ? linkTarget(options.runUrl) : undefined;
  const last = report.last_apply
    ? ` Last apply ${report.last_apply.time}: ${count(report.last_apply.records)} actions, ${count(report.last_apply.failed)} failed.`
    : '';
  lines.push(
    `Planned${from} at ${report.created_at} (plan ${codeSpan(report.plan_id.slice(0, 12))}${run ? `, [run](${run})` : ''}).${last}`,
    '',
    '| State | Items | Sites |',
    '|---|---:|---:|',
  );
  for (const group of report.groups)
    lines.push(`| ${STATUS_TITLES[group.state]} | ${count(group.items)} | ${count(group.sites)} |`);
  return lines;
}

function frameLines(group: StatusGroup): string[] {
  return ['', `#### ${STATUS_TITLES[group.state]}: ${groupTotals(group)}`, '', ...TABLE_HEAD];
}

function moreLine(group: StatusGroup, omitted: number): string {
  // Sized for the widest count while reserving room: the real line is never longer.
  const n = omitted === 0 ? group.rows.length : omitted;
  return `… ${count(n)} more row${n === 1 ? '' : 's'} of ${STATUS_TITLES[group.state].toLowerCase()} not shown: \`svc-gitops status --format json\` lists them all.`;
}

function rowCell(row: StatusRow): string {
  const item = row.kind === 'core' ? 'core' : `${row.kind} ${markdownUrl(row.slug)}`;
  const name = row.name !== '' && row.name !== row.slug ? `${esc(row.name, 120)}<br>` : '';
  const until = row.when !== undefined ? esc(row.when) : '';
  const named = row.first_sites.map((url) => markdownUrl(url));
  if (row.sites > row.first_sites.length) named.push(`… ${count(row.sites - row.first_sites.length)} more`);
  const sites = [`**${count(row.sites)}**`, ...named].join('<br>');
  return `| ${name}${item} | ${esc(row.versions)} | ${esc(row.detail, DETAIL_MAX)} | ${until} | ${sites} |`;
}

function lazyRows(rows: readonly StatusRow[]): (index: number) => string {
  const cache: string[] = [];
  return (index) => {
    cache[index] ??= rowCell(rows[index]!);
    return cache[index];
  };
}

function size(lines: readonly string[]): number {
  return lines.reduce((total, line) => total + line.length + 1, 0);
}

/** How many leading rows of each group fit into `room`: equal shares first, then in order. */
function shareRows(
  groups: readonly StatusGroup[],
  rows: ReadonlyArray<(index: number) => string>,
  room: number,
): number[] {
  const shown = groups.map(() => 0);
  let left = Math.max(0, room);
  const grant = (i: number, limit: number): void => {
    let spent = 0;
    while (shown[i]! < groups[i]!.rows.length) {
      const cost = rows[i]!(shown[i]!).length + 1;
      if (spent + cost > limit || cost > left) return;
      spent += cost;
      left -= cost;
      shown[i]! += 1;
    }
  };
  const share = Math.floor(left / Math.max(1, groups.length));
  for (let i = 0; i < groups.length; i++) grant(i, share);
  for (let i = 0; i < groups.length; i++) grant(i, Number.POSITIVE_INFINITY);
  return shown;
}

/** The issue's title: no counts, so it does not change every run. */
export function statusTitle(dashboardUrl: string, configKey: string): string {
  let host = dashboardUrl;
  try {
    host = new URL(dashboardUrl).host;
  } catch {
    // keep the raw value: the title is for people
  }
  return `svc-gitops status: ${host} (${configKey})`.slice(0, 250);
}
