/**
 * A site's ignore list before and after the plan, as a unified diff (the `diff` package). With
 * the live state at hand the diff shows the whole list as context; without it, only the lines
 * the plan changes. Lines are `kind slug (versions) [origin]`, sorted, so the diff is stable.
 */
import { createTwoFilesPatch } from 'diff';
import type { Action, LiveIgnore } from '../types.js';
import { itemLabel } from './plan-words.js';
import { safeText } from './safe-text.js';

function line(kind: Action['kind'], slug: string, versions: LiveIgnore['versions'], origin: string): string {
  const which = versions === 'all' ? 'all versions' : `versions ${versions.join(', ')}`;
  const where = origin === 'site' ? '' : ` [${origin}]`;
  return safeText(`${itemLabel({ kind, slug })} (${which})${where}`);
}

const sorted = (lines: string[]): string =>
  lines
    .sort()
    .map((entry) => `${entry}\n`)
    .join('');

/**
 * The patch for one site's ignore/unignore actions. `live` are the site's live ignores, when
 * the renderer was given the live state; the header lines name the site.
 */
export function ignoreListPatch(
  siteLabel: string,
  actions: readonly Action[],
  live?: readonly LiveIgnore[],
): string {
  const touched = new Set(actions.map((action) => `${action.kind}\u0000${action.slug}`));
  const isTouchedSiteIgnore = (ignore: LiveIgnore): boolean =>
    ignore.origin === 'site' && touched.has(`${ignore.kind}\u0000${ignore.slug}`);
  const text = (ignore: LiveIgnore): string => line(ignore.kind, ignore.slug, ignore.versions, ignore.origin);
  // Without the live state, "before" is just what the unignores remove.
  const beforeLines = live
    ? live.map(text)
    : actions.filter((a) => a.op === 'unignore').map((a) => line(a.kind, a.slug, 'all', 'site'));
  const kept = live ? live.filter((ignore) => !isTouchedSiteIgnore(ignore)).map(text) : [];
  const added = actions.filter((a) => a.op === 'ignore').map((a) => line(a.kind, a.slug, 'all', 'site'));
  const label = safeText(siteLabel);
  const patch = createTwoFilesPatch(
    `${label} (live)`,
    `${label} (planned)`,
    sorted(beforeLines),
    sorted([...kept, ...added]),
    '',
    '',
    {
      context: 3,
    },
  );
  // Drop the `Index:`/`====` preamble: the ---/+++ lines already name the site.
  return patch.replace(/^(Index: .*\n)?=+\n/, '');
}
