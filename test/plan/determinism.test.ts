import { describe, expect, it } from 'vitest';
import { createPlan, fingerprintSite, planId, verifyPlanId } from '../../src/plan/index.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import type { LiveState } from '../../src/types.js';
import { GOLDEN_CASES } from '../golden/cases.js';
import { generateFleet, ignored, PLAN_OPTIONS, site, update } from './builders.js';

const mixed = GOLDEN_CASES.find((c) => c.name === 'mixed-fleet')!;

/** A deterministic reordering (reverse, then odd indices before even) of every live list. */
function reordered(live: LiveState): LiveState {
  const shuffle = <T>(list: T[]): T[] => {
    const reversed = [...list].reverse();
    return [...reversed.filter((_, i) => i % 2 === 1), ...reversed.filter((_, i) => i % 2 === 0)];
  };
  return {
    ...live,
    sites: shuffle(live.sites),
    pending: shuffle(live.pending),
    ignores: shuffle(live.ignores),
  };
}

describe('determinism', () => {
  it('gives the same bytes and id for the same inputs', () => {
    const first = createPlan(mixed.desired, mixed.live, PLAN_OPTIONS);
    const second = createPlan(structuredClone(mixed.desired), structuredClone(mixed.live), PLAN_OPTIONS);
    expect(renderPlanJson(second)).toBe(renderPlanJson(first));
    expect(second.id).toBe(first.id);
  });

  it('does not depend on the order the dashboard listed things in', () => {
    const first = createPlan(mixed.desired, mixed.live, PLAN_OPTIONS);
    const second = createPlan(mixed.desired, reordered(mixed.live), PLAN_OPTIONS);
    expect(renderPlanJson(second)).toBe(renderPlanJson(first));
  });

  it('is stable on a generated fleet', () => {
    const live = generateFleet({ sites: 300, pendingPerSite: 6, ignoredPerSite: 3 });
    const a = createPlan(mixed.desired, live, PLAN_OPTIONS);
    const b = createPlan(mixed.desired, reordered(live), PLAN_OPTIONS);
    expect(b.id).toBe(a.id);
    expect(a.actions.length).toBeGreaterThan(300);
  });
});

describe('plan id', () => {
  const plan = createPlan(mixed.desired, mixed.live, PLAN_OPTIONS);

  it('verifies an untouched plan, also after a JSON round trip', () => {
    expect(plan.id).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyPlanId(plan)).toBe(true);
    expect(verifyPlanId(JSON.parse(renderPlanJson(plan)))).toBe(true);
  });

  it('ignores key order but not content', () => {
    const { id: _id, ...rest } = plan;
    const reversedKeys = Object.fromEntries(Object.entries(rest).reverse()) as typeof rest;
    expect(planId(reversedKeys)).toBe(plan.id);
    const edited = structuredClone(plan);
    edited.actions[0]!.slug = 'other.php';
    expect(verifyPlanId(edited)).toBe(false);
    expect(verifyPlanId({ ...plan, expires_at: '2099-01-01T00:00:00.000Z' })).toBe(false);
  });
});

describe('fingerprintSite', () => {
  const live: LiveState = {
    ...mixed.live,
    sites: [site(1)],
    pending: [update(1, 'plugin', 'a/a.php', '1.0', '1.0.1'), update(1, 'plugin', 'b/b.php', '1.0', '1.0.1')],
    ignores: [ignored(1, 'theme', 't')],
    unreadable: [],
  };
  const items = [
    { kind: 'plugin' as const, slug: 'a/a.php' },
    { kind: 'theme' as const, slug: 't' },
  ];
  const base = fingerprintSite(live, 1, items);

  it('changes when a touched item, its ignore or the site status changes', () => {
    const moved = { ...live, pending: [update(1, 'plugin', 'a/a.php', '1.0', '1.0.2'), live.pending[1]!] };
    expect(fingerprintSite(moved, 1, items)).not.toBe(base);
    expect(fingerprintSite({ ...live, ignores: [] }, 1, items)).not.toBe(base);
    expect(fingerprintSite({ ...live, sites: [site(1, { status: 'suspended' })] }, 1, items)).not.toBe(base);
    const unreadable = { ...live, unreadable: [{ siteId: 1, url: site(1).url, code: 'x', message: 'y' }] };
    expect(fingerprintSite(unreadable, 1, items)).not.toBe(base);
  });

  it('tells apart facts that only a lossy or joined encoding would confuse', () => {
    const slugged = (slug: string) => ({ ...live, pending: [update(1, 'plugin', slug, '1.0', '1.0.1')] });
    const lone = [{ kind: 'plugin' as const, slug: 'x\ud800' }];
    const other = [{ kind: 'plugin' as const, slug: 'x\udc00' }];
    expect(fingerprintSite(slugged('x\ud800'), 1, lone)).not.toBe(
      fingerprintSite(slugged('x\udc00'), 1, other),
    );
    // UTF-8 would write a lone surrogate as U+FFFD.
    const replaced = [{ kind: 'plugin' as const, slug: 'x\ufffd' }];
    expect(fingerprintSite(slugged('x\ud800'), 1, lone)).not.toBe(
      fingerprintSite(slugged('x\ufffd'), 1, replaced),
    );
    const versions = (v: string[]) => ({ ...live, ignores: [ignored(1, 'theme', 't', { versions: v })] });
    expect(fingerprintSite(versions(['1,2']), 1, items)).not.toBe(
      fingerprintSite(versions(['1', '2']), 1, items),
    );
    expect(fingerprintSite(versions(['all']), 1, items)).not.toBe(base);
  });

  it('ignores untouched items and the order of items and facts', () => {
    const other = { ...live, pending: [live.pending[0]!, update(1, 'plugin', 'b/b.php', '1.0', '2.0')] };
    expect(fingerprintSite(other, 1, items)).toBe(base);
    expect(fingerprintSite(reordered(live), 1, [...items].reverse())).toBe(base);
  });
});
