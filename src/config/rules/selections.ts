import type { Diagnostic } from '../../errors.js';
import { expandItems, expandSelection } from '../expand.js';
import { matcherKey, selectsNothing } from '../matchers.js';
import type { RawItemAt } from '../model.js';
import { diagnostic } from '../places.js';
import { everySelection, type Rule } from './context.js';

/** A selection whose exclusions remove every included site selects nothing: always a mistake. */
export const emptySelection: Rule = {
  name: 'empty-selection',
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    for (const { selection, owner } of everySelection(merged)) {
      const expanded = expandSelection(selection, merged.groups);
      // Unknown or cyclic groups expand to nothing; those rules already report them.
      if (expanded.include.length === 0 || !selectsNothing(expanded)) continue;
      out.push(
        diagnostic(locate, {
          rule: 'empty-selection',
          message: `${owner} selects no site: its exclusions cover everything it includes`,
          place: selection.place,
          hint: 'remove the exclusion that covers the included sites, or remove the entry',
        }),
      );
    }
    return out;
  },
};

/**
 * Addresses are compared without a leading `www.` (select.ts), so a glob starting with `www.`
 * cannot tell www sites apart: `www.*` would select every site. Always a mistake.
 */
export const wwwGlob: Rule = {
  name: 'www-glob',
  check({ merged, locate }) {
    const lists: Array<readonly RawItemAt[]> = [];
    for (const { selection } of everySelection(merged)) lists.push(selection.include, selection.exclude);
    for (const group of merged.groups.values()) lists.push(group.items);
    const out: Diagnostic[] = [];
    for (const { item, place } of lists.flat()) {
      if (item.type !== 'glob' || !/^www\./i.test(item.pattern)) continue;
      const rest = item.pattern.slice(4);
      out.push(
        diagnostic(locate, {
          rule: 'www-glob',
          message: `site glob \`${item.pattern}\` selects as if written \`${rest}\`: addresses are compared without \`www.\``,
          place,
          hint: `write \`${rest}\`; a glob cannot select only the sites whose address starts with www.`,
        }),
      );
    }
    return out;
  },
};

/**
 * A site listed twice in one wave (directly or through groups) is a copy-paste slip; a site
 * listed in two waves goes to the first one only, which is worth a warning.
 */
export const duplicateWaveSite: Rule = {
  name: 'duplicate-wave-site',
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    const firstWave = new Map<string, string>();
    for (const wave of merged.waves) {
      const seen = new Map<string, string>();
      for (const { matcher, from } of expandItems(wave.sites.include, merged.groups)) {
        const key = matcherKey(matcher);
        const label = key.replace(/^[a-z]+:/, '');
        const written = writtenAs(from.item);
        const previous = seen.get(key);
        if (previous !== undefined) {
          out.push(
            diagnostic(locate, {
              rule: 'duplicate-wave-site',
              message: `wave \`${wave.name}\` lists ${label} twice (${previous} and ${written})`,
              place: from.place,
              hint: 'list each site once per wave',
            }),
          );
          continue;
        }
        seen.set(key, written);
        const earlier = firstWave.get(key);
        if (earlier !== undefined && earlier !== wave.name) {
          out.push(
            diagnostic(locate, {
              rule: 'duplicate-wave-site',
              severity: 'warning',
              message: `${label} is in wave \`${earlier}\` and again in wave \`${wave.name}\`; it rolls out in \`${earlier}\``,
              place: from.place,
              hint: `remove it from wave \`${wave.name}\``,
            }),
          );
        } else firstWave.set(key, wave.name);
      }
    }
    return out;
  },
};

function writtenAs(item: { type: string; name?: string }): string {
  return item.type === 'group' ? `group:${item.name}` : 'directly';
}
