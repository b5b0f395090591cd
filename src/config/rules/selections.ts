import type { Diagnostic } from '../../errors.js';
import { expandItems, expandSelection } from '../expand.js';
import { matcherKey, selectsNothing } from '../matchers.js';
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
