import type { Diagnostic } from '../../errors.js';
import { CORE_SLUG } from '../../types.js';
import { expandSelection } from '../expand.js';
import { certainlyOverlap } from '../matchers.js';
import type { Place } from '../model.js';
import { diagnostic, placeText } from '../places.js';
import type { Rule } from './context.js';

/**
 * An item that an ignore rule hides and an update policy names explicitly (an exact slug in
 * `include`, not a glob; `wordpress` for core) on the same sites: the two intentions contradict each other, because an
 * ignored update is never pending and so never runs. Reported only when some site is certainly in
 * both selections.
 */
export const ignoredAndUpdated: Rule = {
  name: 'ignored-and-updated',
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    const byIncluded = new Map<string, number[]>();
    merged.policies.forEach((policy, at) => {
      for (const { value } of policy.include) {
        const list = byIncluded.get(value);
        if (list === undefined) byIncluded.set(value, [at]);
        else if (list[list.length - 1] !== at) list.push(at);
      }
    });
    for (const rule of merged.ignoreRules) {
      const ignored: Array<{ kind: 'core' | 'plugin' | 'theme'; slug: string; place: Place }> = [
        ...rule.plugins.map((p) => ({ kind: 'plugin' as const, slug: p.value, place: p.place })),
        ...rule.themes.map((t) => ({ kind: 'theme' as const, slug: t.value, place: t.place })),
      ];
      if (rule.core)
        ignored.push({
          kind: 'core',
          slug: CORE_SLUG,
          place: { ...rule.place, path: [...rule.place.path, 'core'] },
        });
      if (ignored.length === 0) continue;
      // Only the policies naming one of the slugs can conflict: looked up, not scanned, so the
      // rule is linear in rules plus policies, where a scan of every pair grew with their product.
      const candidates = new Set<number>();
      for (const item of ignored) for (const at of byIncluded.get(item.slug) ?? []) candidates.add(at);
      if (candidates.size === 0) continue;
      const ruleSites = expandSelection(rule.sites, merged.groups);
      for (const at of [...candidates].sort((a, b) => a - b)) {
        const policy = merged.policies[at]!;
        const forced = ignored.filter(
          (item) =>
            policy.kinds.includes(item.kind) &&
            policy.include.some((g) => g.value === item.slug) &&
            !policy.exclude.some((g) => g.value === item.slug),
        );
        if (forced.length === 0) continue;
        if (!certainlyOverlap(ruleSites, expandSelection(policy.sites, merged.groups))) continue;
        for (const item of forced) {
          out.push(
            diagnostic(locate, {
              rule: 'ignored-and-updated',
              message: `${item.slug} is ignored here and updated by policy \`${policy.name}\` (${placeText(locate, policy.place)}) on the same sites`,
              place: item.place,
              hint: 'an ignored update never runs: remove the ignore, or remove the slug from the policy (use a hold to pause it)',
              related: [{ place: policy.place, message: `policy \`${policy.name}\`` }],
            }),
          );
        }
      }
    }
    return out;
  },
};
