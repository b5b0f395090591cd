/** Wording shared by the plan renderers: summary line, markers, item and change labels. */
import type { Action, ActionOp, Plan, PlanSummary } from '../types.js';

export const MARKERS: Record<ActionOp, string> = { ignore: '+', unignore: '-', update: '~' };

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `N to ignore, N to unignore, N to update on N sites`: the first line of every plan view. */
export function summaryLine(summary: PlanSummary): string {
  return `${summary.ignore} to ignore, ${summary.unignore} to unignore, ${summary.update} to update on ${plural(summary.sites, 'site')}`;
}

export function hasChanges(summary: PlanSummary): boolean {
  return summary.ignore + summary.unignore + summary.update > 0;
}

type Clean = (value: string) => string;
const raw: Clean = (value) => value;

/**
 * `plugin akismet/akismet.php`; core is just `core`. Raw by default (callers escape the label
 * for their medium), or with the dashboard's part passed through `clean`.
 */
export function itemLabel(action: Pick<Action, 'kind' | 'slug'>, clean: Clean = raw): string {
  return action.kind === 'core' ? 'core' : `${action.kind} ${clean(action.slug)}`;
}

/**
 * `5.3.6 → 5.3.7` for updates (translations have no target version; anything else may have
 * none reported), empty otherwise.
 */
export function changeLabel(action: Action, clean: Clean = raw): string {
  if (action.op !== 'update') return '';
  const to = action.to
    ? clean(action.to)
    : action.kind === 'translation'
      ? '(latest translation)'
      : '(unreported version)';
  return `${clean(action.from ?? '')} → ${to}`;
}

export function shortId(id: string): string {
  return id.slice(0, 12);
}

/** What a plan without actions says: "matches" only when nothing at all was noted. */
export function noChangesLine(plan: Plan): string {
  if (plan.notes.length === 0) return 'The live state matches the desired state.';
  return `Nothing to change; ${plural(plan.notes.length, 'note')} below.`;
}

/** Characters that delimit the views' site lists (text: `[…]`, both: `id (address), …`). */
const LIST_DELIMITERS = new Set(['(', ')', ',', '[', ']']);

/**
 * An address as a site list shows it: printable ASCII as it is, except the lists' delimiters;
 * everything else (spaces, controls, any other character, so look-alikes of the delimiters too)
 * percent-encoded as UTF-8, the way a URL may write it. A hostile address therefore cannot pose
 * as more entries of the list (`https://a.test/), 1 (https://b.test/` stays one), and no later
 * escaping turns any of it back into a space or a delimiter.
 */
function listedAddress(url: string): string {
  let out = '';
  for (const char of url) {
    const code = char.codePointAt(0) as number;
    if (code > 0x20 && code < 0x7f && !LIST_DELIMITERS.has(char)) out += char;
    else
      for (const byte of Buffer.from(char, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** How many site ids a view lists before it counts the rest (the JSON plan has them all). */
export const LISTED_SITES = 10;

/**
 * The sites a note is about: `site 12`, `sites 12, 15, 19`, `2345 sites: 1, 4, … and 2335 more`;
 * each with its address when the note gives them (`site 12 (https://a.test/)`), the address
 * passed through `clean` for the medium.
 */
export function siteList(ids: readonly number[], urls?: readonly string[], clean: Clean = raw): string {
  const named = (id: number, i: number) => {
    const url = urls?.[i];
    return url === undefined ? String(id) : `${id} (${clean(listedAddress(url))})`;
  };
  if (ids.length === 1) return `site ${named(ids[0] as number, 0)}`;
  const shown = ids.slice(0, LISTED_SITES).map(named).join(', ');
  if (ids.length <= LISTED_SITES) return `sites ${shown}`;
  return `${ids.length} sites: ${shown} and ${ids.length - LISTED_SITES} more`;
}
