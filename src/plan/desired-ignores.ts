/**
 * The desired ignores of a site: the union of the items of every ignore rule whose selection
 * matches it. The first rule naming an item (in file order) is the one a reason cites. Sites
 * matched by the same rules share one (read-only) map: a fleet has a few such groups.
 */
import { CORE_SLUG, type IgnoreRule, type Site } from '../types.js';
import { type DesiredIgnore, desiredIgnoreReason } from './ignores.js';
import { itemKey } from './live-index.js';
import { compileSelection } from './select.js';

export function compileDesiredIgnores(
  rules: readonly IgnoreRule[],
): (site: Site) => ReadonlyMap<string, DesiredIgnore> {
  const compiled = rules.map((rule) => {
    const { source } = rule;
    const reason = desiredIgnoreReason(source);
    const items: DesiredIgnore[] = [
      ...(rule.core ? [{ kind: 'core' as const, slug: CORE_SLUG, source, reason }] : []),
      ...rule.plugins.map((slug) => ({ kind: 'plugin' as const, slug, source, reason })),
      ...rule.themes.map((slug) => ({ kind: 'theme' as const, slug, source, reason })),
    ];
    return { selects: compileSelection(rule.selection), items };
  });
  const byMatchedRules = new Map<string, Map<string, DesiredIgnore>>();
  return (site) => {
    // The positions of the rules that select the site, e.g. "0,2,": the same rules, one map.
    let signature = '';
    for (let i = 0; i < compiled.length; i++) if (compiled[i]?.selects(site)) signature += `${i},`;
    let desired = byMatchedRules.get(signature);
    if (!desired) {
      desired = new Map<string, DesiredIgnore>();
      for (const rule of compiled) {
        if (!rule.selects(site)) continue;
        for (const item of rule.items) {
          const key = itemKey(item.kind, item.slug);
          if (!desired.has(key)) desired.set(key, item);
        }
      }
      byMatchedRules.set(signature, desired);
    }
    return desired;
  };
}
