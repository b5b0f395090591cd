/**
 * The desired ignores of a site: the union of the items of every ignore rule whose selection
 * matches it. The first rule naming an item (in file order) is the one a reason cites. Sites
 * matched by the same rules share one (read-only) set: a fleet has a few such groups.
 */
import { CORE_SLUG, type IgnorableKind, type IgnoreRule, type Site, type SourceRef } from '../types.js';
import { ItemMap } from './item-map.js';
import { compareKinds, compareText } from './order.js';
import { sourceLabel } from './reasons.js';
import { compileSelections } from './select.js';

export interface DesiredIgnore {
  kind: IgnorableKind;
  slug: string;
  source: SourceRef;
  /** The reason of its `ignore` actions, written once per rule: thousands of sites share it. */
  reason: string;
}

/** The reason shared by every `ignore` action a rule's item makes. */
export function desiredIgnoreReason(source: SourceRef): string {
  return `ignored by the desired state (${sourceLabel(source)})`;
}

export interface DesiredIgnores {
  /** In action order (kind, then slug): a site's `ignore` actions come out sorted. */
  readonly items: readonly DesiredIgnore[];
  readonly byItem: ItemMap<DesiredIgnore>;
  /** Site-wide flags the desired state sets (true) or clears (false); the last rule wins. */
  readonly flags: ReadonlyMap<IgnorableKind, DesiredFlag>;
}

export interface DesiredFlag {
  value: boolean;
  source: SourceRef;
}

export function compileDesiredIgnores(rules: readonly IgnoreRule[]): (site: Site) => DesiredIgnores {
  const itemsOfRule = rules.map((rule) => {
    const { source } = rule;
    const reason = desiredIgnoreReason(source);
    const items: DesiredIgnore[] = [
      ...(rule.core ? [{ kind: 'core' as const, slug: CORE_SLUG, source, reason }] : []),
      ...rule.plugins.map((slug) => ({ kind: 'plugin' as const, slug, source, reason })),
      ...rule.themes.map((slug) => ({ kind: 'theme' as const, slug, source, reason })),
    ];
    return items;
  });
  const selecting = compileSelections(rules.map((rule) => rule.selection));
  const byMatchedRules = new Map<string, DesiredIgnores>();
  return (site) => {
    // The positions of the rules that select the site, e.g. "0,2": the same rules, one set.
    const positions = selecting(site);
    const signature = positions.join(',');
    let desired = byMatchedRules.get(signature);
    if (!desired) {
      const byItem = new ItemMap<DesiredIgnore>();
      const items: DesiredIgnore[] = [];
      for (const position of positions) {
        for (const item of itemsOfRule[position] as DesiredIgnore[]) {
          if (byItem.has(item.kind, item.slug)) continue;
          byItem.set(item.kind, item.slug, item);
          items.push(item);
        }
      }
      items.sort((a, b) => compareKinds(a.kind, b.kind) || compareText(a.slug, b.slug));
      const flags = new Map<IgnorableKind, DesiredFlag>();
      for (const position of positions) {
        const rule = rules[position] as IgnoreRule;
        for (const [kind, value] of Object.entries(rule.siteFlags ?? {}) as Array<[IgnorableKind, boolean]>)
          flags.set(kind, { value, source: rule.source });
      }
      desired = { items, byItem, flags };
      byMatchedRules.set(signature, desired);
    }
    return desired;
  };
}
