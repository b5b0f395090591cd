/**
 * The plan for a terminal. The first line is always the summary (`N to ignore, N to unignore,
 * N to update on N sites`), then the actions grouped by site (default) or by item, one line
 * each with a `+` (ignore), `-` (unignore) or `~` (update) marker, then the notes. Every
 * dashboard string passes safeText, so names cannot inject terminal escapes or fake lines.
 */
import type { Action, Plan, PlanNote } from '../types.js';
import { type Styles, styles } from './ansi.js';
import {
  changeLabel,
  hasChanges,
  itemLabel,
  MARKERS,
  noChangesLine,
  shortId,
  siteList,
  summaryLine,
} from './plan-words.js';
import { safeText } from './safe-text.js';

export interface PlanTextOptions {
  groupBy?: 'site' | 'item';
  colour?: boolean;
}

function markerOf(action: Action, s: Styles): string {
  const marker = MARKERS[action.op];
  return action.op === 'ignore'
    ? s.green(marker)
    : action.op === 'unignore'
      ? s.red(marker)
      : s.yellow(marker);
}

function riskTag(action: Action, s: Styles): string {
  return action.risk === 'high' ? ` ${s.red(s.bold('[high risk]'))}` : '';
}

function actionLine(action: Action, subject: string, s: Styles): string {
  const change = action.op === 'update' ? ` ${safeText(changeLabel(action))}` : '';
  const wave = action.wave === undefined ? '' : s.dim(` wave ${safeText(action.wave)}`);
  const reason = s.dim(`  (${safeText(action.reason)})`);
  return `  ${markerOf(action, s)} ${action.op.padEnd(8)} ${subject}${change}${riskTag(action, s)}${wave}${reason}`;
}

function* groupLines(actions: readonly Action[], groupBy: 'site' | 'item', s: Styles): Generator<string> {
  const groups = new Map<string, { title: string; actions: Action[] }>();
  const ordered =
    groupBy === 'site' ? [...actions].sort((a, b) => a.site_id - b.site_id) : itemOrder(actions);
  for (const action of ordered) {
    const key = groupBy === 'site' ? String(action.site_id) : `${action.kind}\u0000${action.slug}`;
    const title =
      groupBy === 'site'
        ? `site ${action.site_id} ${safeText(action.site_url)}`
        : `${safeText(itemLabel(action))}${action.name !== action.slug ? ` (${safeText(action.name)})` : ''}`;
    const group = groups.get(key) ?? { title, actions: [] };
    group.actions.push(action);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    yield '';
    yield s.bold(group.title);
    for (const action of group.actions) {
      const subject =
        groupBy === 'site'
          ? safeText(itemLabel(action))
          : `site ${action.site_id} ${safeText(action.site_url)}`;
      yield actionLine(action, subject, s);
    }
  }
}

/** Items in kind order then slug; a stable sort keeps the plan's own order within an item. */
function itemOrder(actions: readonly Action[]): Action[] {
  const kinds = ['core', 'plugin', 'theme', 'translation'];
  return [...actions].sort(
    (a, b) =>
      kinds.indexOf(a.kind) - kinds.indexOf(b.kind) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0),
  );
}

function noteLine(note: PlanNote): string {
  const sites = note.site_ids ? ` [${siteList(note.site_ids)}]` : '';
  return `  ! ${note.kind}: ${safeText(note.message)}${sites}`;
}

/** The text view line by line (each chunk ends in a newline), for writing large plans. */
export function* planTextChunks(plan: Plan, options: PlanTextOptions = {}): Generator<string> {
  const s = styles(options.colour ?? false);
  const { summary } = plan;
  const high = summary.high_risk > 0 ? `, ${s.red(`${summary.high_risk} high risk`)}` : '';
  yield hasChanges(summary)
    ? `${s.bold(summaryLine(summary))}${high}\n`
    : `No changes. ${summaryLine(summary)}.\n`;
  yield `${s.dim(`plan ${shortId(plan.id)} for ${safeText(plan.dashboard.url)}, expires ${plan.expires_at}`)}\n`;
  if (!hasChanges(summary)) yield `\n${noChangesLine(plan)}\n`;
  for (const line of groupLines(plan.actions, options.groupBy ?? 'site', s)) yield `${line}\n`;
  if (plan.notes.length > 0) {
    yield `\n${s.yellow(`Notes (${plan.notes.length}):`)}\n`;
    for (const note of plan.notes) yield `${noteLine(note)}\n`;
  }
  if (plan.needs_approval) yield `\n${s.yellow('This plan needs approval before it can be applied.')}\n`;
}

export function renderPlanText(plan: Plan, options: PlanTextOptions = {}): string {
  return [...planTextChunks(plan, options)].join('');
}
