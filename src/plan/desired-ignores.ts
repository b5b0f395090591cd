/**
 * The desired ignores of a site: the union of the items of every ignore rule whose selection
 * matches it. The first rule naming an item (in file order) is the one a reason cites.
 */
import { CORE_SLUG, type IgnoreRule, type Site } from '../types.js';
import type { DesiredIgnore } from './ignores.js';
import { itemKey } from './live-index.js';
import { compileSelection } from './select.js';

export function compileDesiredIgnores(
  rules: readonly IgnoreRule[],
): (site: Site) => Map<string, DesiredIgnore> {
  const compiled = rules.map((rule) => {
    const items: DesiredIgnore[] = [
      ...(rule.core ? [{ kind: 'core' as const, slug: CORE_SLUG, source: rule.source }] : []),
      ...rule.plugins.map((slug) => ({ kind: 'plugin' as const, slug, source: rule.source })),
      ...rule.themes.map((slug) => ({ kind: 'theme' as const, slug, source: rule.source })),
    ];
    return { selects: compileSelection(rule.selection), items };
  });
  return (site) => {
    const desired = new Map<string, DesiredIgnore>();
    for (const rule of compiled) {
      if (!rule.selects(site)) continue;
      for (const item of rule.items) {
        const key = itemKey(item.kind, item.slug);
        if (!desired.has(key)) desired.set(key, item);
      }
    }
    return desired;
  };
}
