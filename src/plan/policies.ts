/**
 * Update policies and holds, compiled once per plan. A pending update may run when some policy
 * selects its site, kind and slug (include globs, empty = every slug; exclude globs) and allows
 * its version level; a hold without `maxVersion` blocks it, a pin blocks targets beyond the pin.
 */
import type { Hold, ItemKind, PendingUpdate, Site, UpdatePolicy, VersionLevel } from '../types.js';
import { compileGlob, compileGlobs } from './glob.js';
import { sourceLabel } from './reasons.js';
import { compileSelection } from './select.js';
import { levelWithin, versionLevel, withinPin } from './versions.js';

/** One per (policy, level) and shared by every update it allows, reason included. */
export interface PolicyVerdict {
  policy: UpdatePolicy;
  level: VersionLevel;
  /** For people: which policy allows the update, and where it is written. */
  reason: string;
}

export interface HoldVerdict {
  hold: Hold;
  /** Why the hold blocks this update, for the `held` note. */
  why: string;
}

export interface CompiledRules {
  allowingPolicy(site: Site, update: PendingUpdate): PolicyVerdict | undefined;
  blockingHold(site: Site, update: PendingUpdate): HoldVerdict | undefined;
}

function kindFilter(kinds: readonly ItemKind[]): (kind: ItemKind) => boolean {
  // An empty list means every kind, as an empty include list means every slug.
  return kinds.length === 0 ? () => true : (kind) => kinds.includes(kind);
}

export function compileRules(policies: readonly UpdatePolicy[], holds: readonly Hold[]): CompiledRules {
  const compiledPolicies = policies.map((policy) => ({
    policy,
    selects: compileSelection(policy.selection),
    kind: kindFilter(policy.kinds),
    include: policy.include.length === 0 ? () => true : compileGlobs(policy.include),
    exclude: compileGlobs(policy.exclude),
    verdicts: new Map<VersionLevel, PolicyVerdict>(),
  }));
  const verdictOf = (entry: (typeof compiledPolicies)[number], level: VersionLevel): PolicyVerdict => {
    let verdict = entry.verdicts.get(level);
    if (!verdict) {
      const { policy } = entry;
      const reason = `policy "${policy.name}" allows ${level} updates (${sourceLabel(policy.source)})`;
      verdict = { policy, level, reason };
      entry.verdicts.set(level, verdict);
    }
    return verdict;
  };
  const compiledHolds = holds.map((hold) => ({
    hold,
    selects: compileSelection(hold.selection),
    slug: compileGlob(hold.slug),
  }));

  // A fleet repeats the same few version moves thousands of times: each is measured once.
  const levels = new Map<string, Map<string, VersionLevel>>();
  const levelOf = (from: string, to: string): VersionLevel => {
    let byTarget = levels.get(from);
    if (!byTarget) {
      byTarget = new Map();
      levels.set(from, byTarget);
    }
    let level = byTarget.get(to);
    if (level === undefined) {
      level = versionLevel(from, to);
      byTarget.set(to, level);
    }
    return level;
  };

  return {
    allowingPolicy(site, update) {
      const level = levelOf(update.from, update.to);
      if (level === 'none') return undefined;
      for (const entry of compiledPolicies) {
        if (!entry.kind(update.kind) || !entry.include(update.slug) || entry.exclude(update.slug)) continue;
        if (!levelWithin(level, entry.policy.maxLevel) || !entry.selects(site)) continue;
        return verdictOf(entry, level);
      }
      return undefined;
    },
    blockingHold(site, update) {
      for (const entry of compiledHolds) {
        if (entry.hold.kind !== update.kind || !entry.slug(update.slug) || !entry.selects(site)) continue;
        const { maxVersion } = entry.hold;
        if (maxVersion === undefined) return { hold: entry.hold, why: 'held' };
        if (!withinPin(update.to, maxVersion)) {
          const target = update.to === '' ? 'an unknown version' : update.to;
          return { hold: entry.hold, why: `pinned to ${maxVersion}, ${target} is beyond the pin` };
        }
      }
      return undefined;
    },
  };
}
