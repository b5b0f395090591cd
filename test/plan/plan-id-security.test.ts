import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { securitySectionJson } from '../../src/canonical/index.js';
import { canonicalJson, createPlan, planId } from '../../src/plan/index.js';
import type { Plan } from '../../src/types.js';
import { GOLDEN_CASES } from '../golden/cases.js';
import { PLAN_OPTIONS } from './builders.js';

/** What the id must be: sha256 of the general canonical writer's output. */
function expectedId(plan: Record<string, unknown>): string {
  const { id: _id, ...rest } = plan;
  return createHash('sha256').update(canonicalJson(rest), 'utf8').digest('hex');
}

const mixed = GOLDEN_CASES.find((c) => c.name === 'mixed-fleet')!;
const { id: _id, ...base } = createPlan(mixed.desired, mixed.live, PLAN_OPTIONS);

const hostile = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('"', '\\', '\u0000', '\ud800', '\udfff', '😀', '\u2028', 'a"b\\c'),
);
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const siteIds = fc.array(fc.oneof(fc.integer(), finite, fc.constant(-0)), { maxLength: 8 });
const move = fc.record({
  kind: hostile,
  slug: hostile,
  name: hostile,
  from: hostile,
  to: hostile,
  advisories: fc.array(hostile, { maxLength: 3 }),
  site_ids: siteIds,
});
const vulnerable = move.chain((m) =>
  fc.constantFrom('no-fix', 'not-planned', '"').map((fix) => ({ ...m, fix })),
);
/** `[2, <hole>]`: a list with a hole at its end. */
function holed(): number[] {
  const list = [1, 2];
  list.splice(0, 1);
  list.length = 2;
  return list;
}

/** Moves with something off: an extra or missing key, a wrong type, undefined, a hole. */
const oddMove = fc.oneof(
  move.map((m) => ({ ...m, extra: 1 })),
  move.map(({ slug: _slug, ...m }) => m),
  move.map((m) => ({ ...m, site_ids: [...m.site_ids, '1'] })),
  move.map((m) => ({ ...m, site_ids: holed() })),
  move.map((m) => ({ ...m, site_ids: [Number.NaN, Number.POSITIVE_INFINITY] })),
  move.map((m) => ({ ...m, advisories: [3] })),
  move.map((m) => ({ ...m, to: undefined })),
  move.map((m) => Object.assign(Object.create({ inherited: 1 }), m)),
  move.map((m) => ({ ...m, toJSON: () => ({ replaced: true }) })),
  fc.constantFrom(null, undefined, 7, 'text', [1, 2]),
);
const advisories = fc.dictionary(
  hostile,
  fc.record(
    { title: hostile, link: hostile, cve: hostile, cvss: fc.double() },
    { requiredKeys: ['title', 'link'] },
  ),
  { maxKeys: 4 },
);
const feed = fc.record({ source: hostile, fetched_at: hostile });
const section = fc.record({
  feed,
  advisories,
  updates: fc.array(move, { maxLength: 5 }),
  vulnerable: fc.array(vulnerable, { maxLength: 5 }),
});

function withSecurity(security: unknown): Record<string, unknown> {
  return { ...base, security };
}

describe('plan id writer, security section', () => {
  it('writes a planner-shaped section by hand, as the general writer would', () => {
    fc.assert(
      fc.property(section, (value) => {
        expect(securitySectionJson(value)).toBe(canonicalJson(value));
        const plan = withSecurity(value);
        expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves anything else to the general writer, with the same id', () => {
    const odd = fc.oneof(
      section.chain((s) => oddMove.map((m) => ({ ...s, updates: [...s.updates, m] }))),
      section.chain((s) => oddMove.map((m) => ({ ...s, vulnerable: [m] }))),
      section.map((s) => ({ ...s, extra: true })),
      section.map(({ feed: _feed, ...s }) => s),
      section.map((s) => ({ ...s, advisories: undefined })),
      fc.constantFrom(null, 3, 'text', [], {}),
    );
    fc.assert(
      fc.property(odd, (value) => {
        const plan = withSecurity(value);
        expect(planId(plan as Omit<Plan, 'id'>)).toBe(expectedId(plan));
      }),
      { numRuns: 300 },
    );
    expect(
      securitySectionJson({ feed: {}, advisories: {}, updates: [null], vulnerable: [] }),
    ).toBeUndefined();
  });
});
