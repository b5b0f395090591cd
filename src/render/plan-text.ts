/**
 * The plan for a terminal. The first line is always the summary (`N to ignore, N to unignore,
 * N to update on N sites`), then the actions grouped by site (default) or by item, one line
 * each with a `+` (ignore), `-` (unignore) or `~` (update) marker, then the notes. Every
 * dashboard string passes safeText, so names cannot inject terminal escapes or fake lines.
 *
 * A fleet's plan has tens of thousands of lines: they are written in chunks of about 16 KiB
 * (one write each), and the strings a plan repeats (reasons, waves, site addresses) are made
 * safe once.
 */
import type { Action, Plan, PlanNote } from '../types.js';
import { type Styles, styles } from './ansi.js';
import { securityTextLines } from './plan-security.js';
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
import { quarantineTextLines } from './quarantines.js';
import { haltText } from './rollout-halt.js';
import { type DistinctChange, distinctChanges, FIRST_SITES } from './rollup.js';
import { safeText } from './safe-text.js';
import { selectorsText } from './selectors.js';

export interface PlanTextOptions {
  groupBy?: 'site' | 'item';
  colour?: boolean;
}

type Safe = (value: string) => string;

/** safeText, remembered per distinct string for one rendering. */
function safeMemo(): Safe {
  const known = new Map<string, string>();
  return (value) => {
    let safe = known.get(value);
    if (safe === undefined) {
      safe = safeText(value);
      known.set(value, safe);
    }
    return safe;
  };
}

interface LineStyle {
  s: Styles;
  safe: Safe;
  /** Each operation's marker and padded name, the start of its lines. */
  starts: Record<Action['op'], string>;
  highRisk: string;
}

function lineStyle(colour: boolean): LineStyle {
  const s = styles(colour);
  const start = (op: Action['op'], marker: string) => `  ${marker} ${op.padEnd(8)} `;
  const starts = {
    ignore: start('ignore', s.green(MARKERS.ignore)),
    unignore: start('unignore', s.red(MARKERS.unignore)),
    update: start('update', s.yellow(MARKERS.update)),
  };
  return { s, safe: safeMemo(), starts, highRisk: ` ${s.red(s.bold('[high risk]'))}` };
}

function actionLine(action: Action, subject: string, style: LineStyle): string {
  const { s, safe } = style;
  // Versions and slugs differ per site: made safe as they are (a memo would hash each one).
  const change = action.op === 'update' ? ` ${changeLabel(action, safeText)}` : '';
  const risk = action.risk === 'high' ? style.highRisk : '';
  const wave = action.wave === undefined ? '' : s.dim(` wave ${safe(action.wave)}`);
  const reason = s.dim(`  (${safe(action.reason)})`);
  return `${style.starts[action.op]}${subject}${change}${risk}${wave}${reason}\n`;
}

interface Group {
  title: string;
  actions: Action[];
}

/**
 * Actions by site, sites ascending; within a site, the plan's own order. The plan lists each
 * operation (and each wave) by ascending site, so its actions form a few ascending runs, merged
 * here in one pass, each group made as it is written (a fleet's groups are never all held); a
 * plan in another order (an edited file) is grouped through a map.
 */
function* bySite(actions: readonly Action[], safe: Safe): Generator<Group> {
  const runs: number[] = [0];
  for (let i = 1; i < actions.length && runs.length <= MAX_RUNS; i++) {
    if ((actions[i] as Action).site_id < (actions[i - 1] as Action).site_id) runs.push(i);
  }
  if (runs.length > MAX_RUNS) {
    yield* bySiteMap(actions, safe);
    return;
  }
  const ends = [...runs.slice(1), actions.length];
  const heads = [...runs];
  for (;;) {
    // The lowest site at the head of any run is the next group; each run gives its actions in turn.
    let site = Number.POSITIVE_INFINITY;
    for (let r = 0; r < heads.length; r++) {
      if ((heads[r] as number) < (ends[r] as number))
        site = Math.min(site, (actions[heads[r] as number] as Action).site_id);
    }
    if (site === Number.POSITIVE_INFINITY) return;
    const group: Group = { title: '', actions: [] };
    for (let r = 0; r < heads.length; r++) {
      let at = heads[r] as number;
      while (at < (ends[r] as number) && (actions[at] as Action).site_id === site)
        group.actions.push(actions[at++] as Action);
      heads[r] = at;
    }
    const first = group.actions[0] as Action;
    // Each site's address is titled once: made safe as it is (a memo would keep the fleet's).
    group.title = `site ${first.site_id} ${safeText(first.site_url)}`;
    yield group;
  }
}

/** More ascending runs than a plan's operations and waves make: an edited plan, grouped by map. */
const MAX_RUNS = 16;

function bySiteMap(actions: readonly Action[], safe: Safe): Group[] {
  const groups = new Map<number, Group>();
  for (const action of actions) {
    const group = groups.get(action.site_id);
    if (group) group.actions.push(action);
    else
      groups.set(action.site_id, {
        title: `site ${action.site_id} ${safe(action.site_url)}`,
        actions: [action],
      });
  }
  return [...groups.keys()].sort((a, b) => a - b).map((id) => groups.get(id) as Group);
}

/** Actions by item, items in kind order then slug; within an item, the plan's own order. */
function byItem(actions: readonly Action[], safe: Safe): Group[] {
  const kinds = ['core', 'plugin', 'theme', 'translation'];
  const groups = new Map<string, Group & { kind: number; slug: string }>();
  for (const action of actions) {
    const key = `${action.kind}\u0000${action.slug}`;
    const group = groups.get(key);
    if (group) {
      group.actions.push(action);
      continue;
    }
    const name = action.name !== action.slug ? ` (${safe(action.name)})` : '';
    const title = `${itemLabel(action, safeText)}${name}`;
    groups.set(key, { title, actions: [action], kind: kinds.indexOf(action.kind), slug: action.slug });
  }
  return [...groups.values()].sort(
    (a, b) => a.kind - b.kind || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0),
  );
}

const CHUNK = 16_384;

function* groupChunks(
  actions: readonly Action[],
  groupBy: 'site' | 'item',
  style: LineStyle,
): Generator<string> {
  const { s, safe } = style;
  const groups = groupBy === 'site' ? bySite(actions, safe) : byItem(actions, safe);
  let chunk = '';
  for (const group of groups) {
    chunk += `\n${s.bold(group.title)}\n`;
    for (const action of group.actions) {
      const subject =
        groupBy === 'site' ? itemLabel(action, safeText) : `site ${action.site_id} ${safe(action.site_url)}`;
      chunk += actionLine(action, subject, style);
    }
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

function noteLine(note: PlanNote): string {
  const sites = note.site_ids ? ` [${siteList(note.site_ids, note.site_urls, safeText)}]` : '';
  return `  ! ${note.kind}: ${safeText(note.message)}${sites}\n`;
}

/** One line per distinct change: what, on how many sites, the first few of them. */
function rollupLine(change: DistinctChange, style: LineStyle): string {
  const { s, safe } = style;
  const action = {
    op: change.op,
    kind: change.kind,
    slug: change.slug,
    from: change.from,
    to: change.to,
  } as Action;
  const move = change.op === 'update' ? ` ${changeLabel(action, safeText)}` : '';
  const risk = change.risk === 'high' ? style.highRisk : '';
  const wave = change.wave === undefined ? '' : s.dim(` wave ${safe(change.wave)}`);
  const count = change.siteIds.length;
  const first = change.siteIds
    .slice(0, FIRST_SITES)
    .map((id, i) => `${id} ${safe(change.firstUrls[i] ?? '')}`)
    .join(', ');
  const more = count > FIRST_SITES ? ` and ${count - FIRST_SITES} more` : '';
  const where = count === 1 ? `on site ${first}` : `on ${count} sites: ${first}${more}`;
  return `${style.starts[change.op]}${itemLabel(change, safeText)}${move}${risk}${wave} ${s.dim(where)}\n`;
}

/** The text view in chunks of whole lines, for writing large plans. */
export function* planTextChunks(plan: Plan, options: PlanTextOptions = {}): Generator<string> {
  const style = lineStyle(options.colour ?? false);
  const { s } = style;
  const { summary } = plan;
  const high = summary.high_risk > 0 ? `, ${s.red(`${summary.high_risk} high risk`)}` : '';
  if (plan.rollout_halt) yield `${s.red(haltText(plan.rollout_halt))}\n`;
  yield hasChanges(summary)
    ? `${s.bold(summaryLine(summary))}${high}\n`
    : `No changes. ${summaryLine(summary)}.\n`;
  // A saved plan's own strings too: `show` renders any file whose id matches its content.
  yield `${s.dim(`plan ${safeText(shortId(plan.id))} for ${safeText(plan.dashboard.url)}, expires ${safeText(plan.expires_at)}`)}\n`;
  const selectors = selectorsText(plan.selectors);
  if (selectors) yield `${s.dim(selectors)}\n`;
  // Security updates and vulnerable versions lead: what fixes a CVE is reviewed first.
  const security = securityTextLines(plan);
  if (security.length > 0)
    yield `\n${security.map((line) => (line.startsWith(' ') ? line : s.bold(line))).join('\n')}\n`;
  // Quarantines lead the rest of the detail: a held version and the sites to repair.
  if (plan.quarantines) yield `\n${s.red(quarantineTextLines(plan.quarantines))}`;
  if (!hasChanges(summary)) yield `\n${noChangesLine(plan)}\n`;
  else {
    // Distinct changes lead, so a fleet's plan is reviewed in one screen; detail follows.
    const changes = distinctChanges(plan.actions);
    yield `\n${s.bold(`Changes (${changes.length} distinct):`)}\n${changes.map((c) => rollupLine(c, style)).join('')}`;
    yield `\n${s.bold(`By ${options.groupBy ?? 'site'}:`)}\n`;
  }
  yield* groupChunks(plan.actions, options.groupBy ?? 'site', style);
  if (plan.notes.length > 0) {
    yield `\n${s.yellow(`Notes (${plan.notes.length}):`)}\n${plan.notes.map(noteLine).join('')}`;
  }
  if (plan.needs_approval) yield `\n${s.yellow('This plan needs approval before it can be applied.')}\n`;
}

export function renderPlanText(plan: Plan, options: PlanTextOptions = {}): string {
  return [...planTextChunks(plan, options)].join('');
}
