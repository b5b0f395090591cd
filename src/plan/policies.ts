/**
 * Update policies and holds, compiled once per plan. A pending update may run when some policy
 * selects its site, kind and slug (include globs, empty = every slug; exclude globs) and allows
 * its version level; a hold without `maxVersion` blocks it, a pin blocks targets beyond the pin.
 *
 * A fleet asks the same questions thousands of times, so each is answered once: which rules
 * select a site (once per site, `siteRules`), which rules name an item (once per kind and slug
 * in the whole plan), and how far a version move goes (once per distinct move).
 */
import type { Hold, ItemKind, PendingUpdate, Site, UpdatePolicy, VersionLevel } from '../types.js';
import { compileGlob, compileGlobs } from './glob.js';
import { memoPairs } from './memo.js';
import { sourceLabel } from './reasons.js';
import { compileSelections } from './select.js';
import { levelWithin, updateLevel, versionLevel, withinPin } from './versions.js';

/** One per (policy, level) and shared by every update it allows, reason included. */
export interface PolicyVerdict {
  policy: UpdatePolicy;
  level: VersionLevel;
  /** For people: which policy allows the update, and where it is written. */
  reason: string;
}

export interface HoldVerdict {
  hold: Hold;
  /** True when a pin blocks this target (a newer version than the pin); false for a plain hold. */
  pinned: boolean;
}

/** The policies and holds that select one site (by position in the desired state). */
export interface SiteRules {
  readonly policies: readonly boolean[];
  readonly holds: readonly boolean[];
}

export interface CompiledRules {
  siteRules(site: Site): SiteRules;
  /**
   * Whether `update` may run on the site: the first policy that allows it, unless a hold blocks
   * it (the hold's verdict); undefined when no policy allows it.
   */
  judge(site: SiteRules, update: PendingUpdate): PolicyVerdict | HoldVerdict | undefined;
}

interface CompiledPolicy {
  index: number;
  policy: UpdatePolicy;
  verdicts: Map<VersionLevel, PolicyVerdict>;
}

interface CompiledHold {
  index: number;
  hold: Hold;
}

/** The rules that name one item, in desired-state order. */
interface ItemRules {
  policies: CompiledPolicy[];
  holds: CompiledHold[];
}

function kindFilter(kinds: readonly ItemKind[]): (kind: ItemKind) => boolean {
  // An empty list means every kind, as an empty include list means every slug.
  return kinds.length === 0 ? () => true : (kind) => kinds.includes(kind);
}

function verdictOf(entry: CompiledPolicy, level: VersionLevel): PolicyVerdict {
  let verdict = entry.verdicts.get(level);
  if (!verdict) {
    const { policy } = entry;
    const reason = `policy "${policy.name}" allows ${level} updates (${sourceLabel(policy.source)})`;
    verdict = { policy, level, reason };
    entry.verdicts.set(level, verdict);
  }
  return verdict;
}

/** `count` flags, set at the selected positions. */
function flagsAt(count: number, positions: readonly number[]): boolean[] {
  const selected = new Array<boolean>(count).fill(false);
  for (let i = 0; i < positions.length; i++) selected[positions[i] as number] = true;
  return selected;
}

export function compileRules(policies: readonly UpdatePolicy[], holds: readonly Hold[]): CompiledRules {
  const policySites = compileSelections(policies.map((policy) => policy.selection));
  const holdSites = compileSelections(holds.map((hold) => hold.selection));
  const policyMatchers = policies.map((policy) => ({
    kind: kindFilter(policy.kinds),
    include: policy.include.length === 0 ? () => true : compileGlobs(policy.include),
    exclude: compileGlobs(policy.exclude),
  }));
  const holdSlugs = holds.map((hold) => compileGlob(hold.slug));
  const compiledPolicies: CompiledPolicy[] = policies.map((policy, index) => ({
    index,
    policy,
    verdicts: new Map<VersionLevel, PolicyVerdict>(),
  }));
  const compiledHolds: CompiledHold[] = holds.map((hold, index) => ({ index, hold }));

  const itemRules = memoPairs((kind, slug): ItemRules => {
    const named = (_: unknown, i: number) => {
      const matcher = policyMatchers[i]!;
      return matcher.kind(kind as ItemKind) && matcher.include(slug) && !matcher.exclude(slug);
    };
    return {
      policies: compiledPolicies.filter(named),
      holds: compiledHolds.filter(({ hold, index }) => hold.kind === kind && holdSlugs[index]!(slug)),
    };
  });
  // A fleet repeats the same few version moves thousands of times.
  const levelOf = memoPairs(versionLevel);
  const pinAllows = memoPairs(withinPin);

  return {
    siteRules(site) {
      return {
        policies: flagsAt(policies.length, policySites(site)),
        holds: flagsAt(holds.length, holdSites(site)),
      };
    },
    judge(site, update) {
      const level = updateLevel(update.kind, update.from, update.to, levelOf);
      if (level === 'none') return undefined;
      const named = itemRules(update.kind, update.slug);
      let allowing: CompiledPolicy | undefined;
      for (const entry of named.policies) {
        if (site.policies[entry.index] && levelWithin(level, entry.policy.maxLevel)) {
          allowing = entry;
          break;
        }
      }
      if (!allowing) return undefined;
      for (const { hold, index } of named.holds) {
        if (!site.holds[index]) continue;
        const { maxVersion, versions } = hold;
        if (versions !== undefined) {
          if (versions.includes(update.to)) return { hold, pinned: false };
          continue;
        }
        if (maxVersion === undefined) return { hold, pinned: false };
        if (!pinAllows(update.to, maxVersion)) return { hold, pinned: true };
      }
      return verdictOf(allowing, level);
    },
  };
}
