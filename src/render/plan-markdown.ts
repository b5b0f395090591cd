/**
 * The plan as a GitHub pull-request comment: summary line and table first, then the distinct
 * changes (rollup.ts: item, from → to, risk, wave, number of sites, first sites), then per-site
 * detail in collapsed sections: high-risk actions, ignore-list changes (a unified diff per site),
 * the other updates and the notes. Detail is cut before any distinct change is. The whole comment stays under `maxChars` (default 60,000,
 * below GitHub's 65,536): rows that do not fit are dropped and a note points to the JSON plan.
 * Every dashboard-provided string is escaped (markdown-escape.ts); diffs sit in fenced code;
 * addresses are code spans (markdownUrl), so they copy as they are and never autolink.
 */
import { SvcError } from '../errors.js';
import type { Action, LiveIgnore, LiveState, Plan, PlanNote } from '../types.js';
import { ignoreListPatch } from './ignore-diff.js';
import { firstSites, waveCell } from './item-cells.js';
import { type ItemRow, itemRows, versionMove } from './item-rows.js';
import { assembleWithinCap, type Section } from './markdown-budget.js';
import { escapeMarkdown as esc, fenceFor, markdownUrl } from './markdown-escape.js';
import { securityMarkdownLines } from './plan-security.js';
import {
  changeLabel,
  hasChanges,
  itemLabel,
  noChangesLine,
  shortId,
  siteList,
  summaryLine,
} from './plan-words.js';
import { quarantineMarkdownLines } from './quarantines.js';
import { haltMarkdown } from './rollout-halt.js';
import { selectorsMarkdown } from './selectors.js';

export const DEFAULT_MARKDOWN_CAP = 60_000;
const MIN_MARKDOWN_CAP = 2_000;

export interface PlanMarkdownOptions {
  /** Hard cap on the comment length in characters. */
  maxChars?: number;
  /** The live state the plan was made from: ignore diffs then show each site's whole list. */
  live?: LiveState;
  /** Where the full JSON plan is (trusted markdown), e.g. "the `plan.json` artifact". */
  fullPlanHint?: string;
  /** Per-site detail (default) or per-item: update tables ordered by item, then site. */
  groupBy?: 'site' | 'item';
  /** The frame around this markdown shows the rollout halt line itself (the PR comment's head). */
  haltAbove?: boolean;
  /** The plan's heading line (default `## svc-gitops plan`); a frame with its own title passes another. */
  heading?: string;
}

const MARK: Record<Action['op'], string> = { update: '~ update', ignore: '+ ignore', unignore: '- unignore' };

function rollupRow(row: ItemRow): string {
  const name = row.name !== row.slug && row.kind !== 'core' ? ` (${esc(row.name)})` : '';
  const reasons = row.reasons.slice(0, 2).map((reason) => esc(reason));
  if (row.reasons.length > 2) reasons.push(`+${row.reasons.length - 2} more`);
  return `| ${MARK[row.op]} | ${esc(itemLabel(row))}${name} | ${esc(versionMove(row))} | ${row.risk} | ${waveCell(row.waves)} | ${row.siteIds.length.toLocaleString('en-US')} | ${reasons.join('<br>')} | ${firstSites(row)} |`;
}

/**
 * The plan by item (one row per operation and item, versions as ranges), in full when the rows
 * take at most `room` characters; otherwise as many as fit and a line saying how many more the
 * JSON plan holds. They lead the plan: a reviewer sees every item before any per-site detail,
 * and detail is cut first.
 */
function rollup(plan: Plan, room: number): string[] {
  const rows = itemRows(plan.actions);
  if (rows.length === 0) return [];
  const lines = [
    `### Changes by item (${rows.length})`,
    '',
    '| change | item | versions | risk | wave | sites | rule or policy | first sites |',
    '|---|---|---|---|---|---:|---|---|',
  ];
  let used = lines.reduce((n, line) => n + line.length + 1, 0);
  for (const [index, row] of rows.entries()) {
    const line = rollupRow(row);
    if (used + line.length + 1 > room) {
      lines.push('', `…and ${rows.length - index} more items: see the full plan.`);
      break;
    }
    used += line.length + 1;
    lines.push(line);
  }
  return [...lines, ''];
}

function head(plan: Plan, haltAbove: boolean, heading: string): string[] {
  const { summary } = plan;
  const lines = [
    ...(plan.rollout_halt && !haltAbove ? [haltMarkdown(plan.rollout_halt), ''] : []),
    heading,
    '',
    hasChanges(summary) ? `**${summaryLine(summary)}**` : `**No changes.** ${summaryLine(summary)}.`,
    '',
    '| to ignore | to unignore | to update | sites | high risk |',
    '|---:|---:|---:|---:|---:|',
    `| ${summary.ignore} | ${summary.unignore} | ${summary.update} | ${summary.sites} | ${summary.high_risk} |`,
    '',
    // A saved plan's times too: `show` renders any file whose id matches its content.
    `Plan \`${shortId(plan.id)}\` for ${markdownUrl(plan.dashboard.url)}, created ${esc(plan.created_at)}, expires ${esc(plan.expires_at)}.`,
  ];
  const selectors = selectorsMarkdown(plan.selectors);
  if (selectors) lines.push('', selectors);
  const security = securityMarkdownLines(plan);
  if (security.length > 0) lines.push('', ...security);
  if (plan.quarantines) lines.push('', ...quarantineMarkdownLines(plan.quarantines));
  if (!hasChanges(summary)) lines.push('', noChangesLine(plan));
  if (plan.needs_approval) {
    const reasons = plan.notes
      .filter((note) => note.kind === 'needs-approval')
      .map((note) => esc(note.message));
    lines.push(
      '',
      '> [!IMPORTANT]',
      `> **Needs approval:** ${reasons.join('; ') || 'required by the approval rules'}.`,
    );
  }
  return [...lines, ''];
}

const TABLE_HEAD = ['| site | item | change | wave | reason |', '|---|---|---|---|---|'];

function updateRow(action: Action): string {
  const name = action.name !== action.slug && action.kind !== 'core' ? ` (${esc(action.name)})` : '';
  return `| ${action.site_id} ${markdownUrl(action.site_url)} | ${esc(itemLabel(action))}${name} | ${esc(changeLabel(action))} | ${esc(action.wave ?? '')} | ${esc(action.reason)} |`;
}

function details(summary: string, open = false): string[] {
  return [`<details${open ? ' open' : ''}><summary>${summary}</summary>`, ''];
}
const CLOSE_DETAILS = ['', '</details>', ''];

function ignoreSection(plan: Plan, live: LiveState | undefined): Section {
  const bySite = new Map<number, Action[]>();
  for (const action of plan.actions) {
    if (action.op === 'update') continue;
    const actions = bySite.get(action.site_id);
    if (actions) actions.push(action);
    else bySite.set(action.site_id, [action]);
  }
  const liveBySite = new Map<number, LiveIgnore[]>();
  for (const ignore of live?.ignores ?? []) {
    if (!bySite.has(ignore.siteId)) continue;
    const ignores = liveBySite.get(ignore.siteId);
    if (ignores) ignores.push(ignore);
    else liveBySite.set(ignore.siteId, [ignore]);
  }
  // By site: the plan lists every site's ignores before any unignores, so a site that only
  // unignores would otherwise come after every site that ignores.
  const sites = [...bySite.entries()].sort((a, b) => a[0] - b[0]);
  // The fence must outlast any backtick run in what the diffs can contain.
  const fence = fenceFor(
    [
      ...sites.flatMap(([, actions]) => actions.flatMap((a) => [a.site_url, a.slug])),
      ...[...liveBySite.values()].flat().map((i) => `${i.slug} ${i.versions}`),
    ].join('\n'),
  );
  const row = (index: number): string => {
    const [siteId, actions] = sites[index]!;
    const siteIgnores = live ? (liveBySite.get(siteId) ?? []) : undefined;
    return ignoreListPatch(`site ${siteId} ${actions[0]!.site_url}`, actions, siteIgnores).replace(/\n$/, '');
  };
  const { ignore, unignore } = plan.summary;
  const title = `Ignore lists: ${ignore} to ignore, ${unignore} to unignore on ${sites.length} site${sites.length === 1 ? '' : 's'}`;
  return {
    open: [...details(title), `${fence}diff`],
    close: [fence, ...CLOSE_DETAILS],
    rowCount: sites.length,
    row,
  };
}

function noteRow(note: PlanNote): string {
  const sites = note.site_ids ? ` — ${siteList(note.site_ids, note.site_urls, markdownUrl)}` : '';
  return `- **${note.kind}** ${esc(note.message)}${sites}`;
}

export function renderPlanMarkdown(plan: Plan, options: PlanMarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? DEFAULT_MARKDOWN_CAP;
  if (!Number.isInteger(maxChars) || maxChars < MIN_MARKDOWN_CAP) {
    throw new SvcError(
      'USAGE',
      `markdown size cap must be an integer of at least ${MIN_MARKDOWN_CAP}, got ${maxChars}`,
    );
  }
  const updates = plan.actions.filter((action) => action.op === 'update');
  const ordered = options.groupBy === 'item' ? byItem(updates) : updates;
  const high = ordered.filter((action) => action.risk === 'high');
  const other = ordered.filter((action) => action.risk !== 'high');
  // Per-site detail stays collapsed: the distinct changes above already show what happens.
  const table = (title: string, actions: Action[]): Section => ({
    open: [...details(title), ...TABLE_HEAD],
    close: CLOSE_DETAILS,
    rowCount: actions.length,
    row: (index) => updateRow(actions[index]!),
  });
  const notes: Section = {
    open: details(`Notes (${plan.notes.length})`),
    close: CLOSE_DETAILS,
    rowCount: plan.notes.length,
    row: (index) => noteRow(plan.notes[index]!),
  };
  const sections = [
    table(`High-risk actions (${high.length})`, high),
    ignoreSection(plan, options.live),
    table(`Other updates (${other.length})`, other),
    notes,
  ];
  const where = options.fullPlanHint ?? 'run `svc-gitops plan --format json` or see the saved plan file';
  const truncationNote = (omitted: number, total: number): string[] => [
    '> [!WARNING]',
    `> **Truncated:** this comment shows ${total - omitted} of ${total} entries (${omitted} left out) to stay under GitHub's comment size limit. The full plan is in the JSON plan: ${where}.`,
    '',
  ];
  const top = head(plan, options.haltAbove === true, options.heading ?? '## svc-gitops plan');
  const room = Math.floor(maxChars * 0.6) - top.reduce((n, line) => n + line.length + 1, 0);
  return assembleWithinCap([...top, ...rollup(plan, room)], sections, maxChars, truncationNote).text;
}

const KIND_ORDER = { core: 0, plugin: 1, theme: 2, translation: 3 } as const;

/** Updates by item (kind, slug), then versions, then site: a stable order for `--group-by item`. */
function byItem(actions: readonly Action[]): Action[] {
  return actions
    .slice()
    .sort(
      (a, b) =>
        KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
        (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) ||
        ((a.from ?? '') < (b.from ?? '') ? -1 : (a.from ?? '') > (b.from ?? '') ? 1 : 0) ||
        a.site_id - b.site_id,
    );
}
