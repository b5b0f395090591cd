import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, createPlan, planId } from '../../src/plan/index.js';
import type { Plan } from '../../src/types.js';
import { GOLDEN_CASES } from '../golden/cases.js';
import { PLAN_OPTIONS } from './builders.js';

/** What the id must be: sha256 of the general canonical writer's output (tested on its own). */
function expectedId(plan: Record<string, unknown>): string {
  const { id: _id, ...rest } = plan;
  return createHash('sha256').update(canonicalJson(rest), 'utf8').digest('hex');
}

const mixed = GOLDEN_CASES.find((c) => c.name === 'mixed-fleet')!;
const base = createPlan(mixed.desired, mixed.live, PLAN_OPTIONS);

// Strings a hostile dashboard could send: quotes, backslashes, controls, lone surrogates.
const hostile = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('"', '\\', '\u0000', '\ud800', '\udfff', '😀', '\u2028', 'a"b\\c'),
);

const plannedAction = fc.record(
  {
    from: hostile,
    kind: hostile,
    name: hostile,
    op: hostile,
    reason: hostile,
    risk: hostile,
    site_id: fc.oneof(fc.integer(), fc.double(), fc.constant(-0)),
    site_url: hostile,
    slug: hostile,
    to: hostile,
    wave: hostile,
  },
  { requiredKeys: ['kind', 'name', 'op', 'reason', 'risk', 'site_id', 'site_url', 'slug'] },
);

/** Planner-shaped actions with something off: an extra or missing key, a wrong type, undefined. */
const oddAction = fc.oneof(
  plannedAction.map((a) => ({ ...a, extra: 1 })),
  plannedAction.map(({ slug: _slug, ...a }) => a),
  plannedAction.map((a) => ({ ...a, site_id: String(a.site_id) })),
  plannedAction.map((a) => ({ ...a, wave: undefined })),
  plannedAction.map((a) => ({ ...a, to: 3 })),
  plannedAction.map((a) => Object.assign(Object.create({ inherited: 1 }), a)),
  plannedAction.map((a) => ({ ...a, toJSON: () => ({ replaced: true }) })),
  fc.constantFrom(null, undefined, 7, 'text', [1, 2]),
);

function withActions(actions: unknown[], fingerprints: unknown = base.fingerprints): Record<string, unknown> {
  const { id: _id, ...rest } = base;
  return { ...rest, actions, fingerprints };
}

describe('plan id writer', () => {
  it('gives a real plan the sha256 of its canonical JSON', () => {
    expect(base.actions.length).toBeGreaterThan(5);
    expect(base.id).toBe(expectedId(base as unknown as Record<string, unknown>));
  });

  it('matches the general writer for planner-shaped actions with hostile strings and numbers', () => {
    fc.assert(
      fc.property(fc.array(plannedAction, { maxLength: 20 }), (actions) => {
        const plan = withActions(actions);
        expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
      }),
      { numRuns: 300 },
    );
  });

  it('matches the general writer when actions share some fields and differ in others', () => {
    // Small pools, so neighbours and distant actions often agree on some fields only: what the
    // writer remembers between actions must never be reused for an action it does not fit.
    const pool = <T>(...values: T[]) => fc.constantFrom(...values);
    const pooledAction = fc.record(
      {
        from: pool('1.0', '2.0'),
        kind: pool('plugin', 'theme'),
        name: pool('A', 'B'),
        op: pool('update', 'ignore'),
        reason: pool('r1', 'r2'),
        risk: pool('low', 'high'),
        site_id: pool(1, 2),
        site_url: pool('https://a.test/', 'https://b.test/'),
        slug: pool('a', 'b'),
        to: pool('1.1', '3.0'),
        wave: pool('w1', 'w2'),
      },
      { requiredKeys: ['kind', 'name', 'op', 'reason', 'risk', 'site_id', 'site_url', 'slug'] },
    );
    fc.assert(
      fc.property(fc.array(pooledAction, { maxLength: 30 }), (actions) => {
        const plan = withActions(actions);
        expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
      }),
      { numRuns: 400 },
    );
  });

  it('matches the general writer when actions are not what the planner writes', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(plannedAction, oddAction), { maxLength: 12 }), (actions) => {
        const plan = withActions(actions);
        expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
      }),
      { numRuns: 300 },
    );
  });

  it('matches the general writer for array holes and odd fingerprints', () => {
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    const holes = [base.actions[0], , base.actions[1]];
    for (const plan of [
      withActions(holes),
      withActions(base.actions, JSON.parse('{"10":"b","9":"a","__proto__":"c","":"\\""}')),
      withActions(base.actions, { 1: 2 }),
      withActions(base.actions, undefined),
      withActions(base.actions, new Map([[1, 'a']])),
      { ...withActions(base.actions), notes: undefined, extra: () => 1 },
    ]) {
      expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
    }
  });

  it('matches the general writer for holes next to toJSON holders, and a toJSON on the plan itself', () => {
    const at = new Date(0);
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    const actions = [, base.actions[0], at];
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    const notes = [, at];
    for (const plan of [
      withActions(actions),
      { ...withActions(base.actions), notes },
      { ...withActions(base.actions), toJSON: () => ({ replaced: true }) },
    ]) {
      const { id: _id, ...rest } = plan;
      expect(() => JSON.parse(canonicalJson(rest))).not.toThrow();
      expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
    }
  });

  it('writes only own enumerable fields, whatever a property read would also see', () => {
    const hidden = { ...base.actions[0]!, zzz: 1 } as Record<string, unknown>;
    Object.defineProperty(hidden, 'wave', { value: 'w1', enumerable: false });
    expect(planId(withActions([hidden]) as Omit<Plan, 'id'>)).toBe(expectedId(withActions([hidden])));
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.from = 'x';
    try {
      const plan = withActions([{ ...base.actions[0]!, zzz: 1 }]);
      expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
    } finally {
      delete polluted.from;
    }
  });

  it('hashes plans larger than its chunk', () => {
    const many = Array.from({ length: 3_000 }, (_, i) => ({
      ...base.actions[i % base.actions.length]!,
      site_id: i,
    }));
    const plan = withActions(many);
    expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
  });
});
