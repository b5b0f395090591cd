import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/index.js';
import { DEFAULT_MARKDOWN_CAP, renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { GOLDEN_CASES } from '../golden/cases.js';
import { generateFleet, PLAN_OPTIONS, policy } from '../plan/builders.js';

const desired = GOLDEN_CASES.find((c) => c.name === 'mixed-fleet')!.desired;
const fleet = generateFleet({ sites: 3_000, pendingPerSite: 6, ignoredPerSite: 3 });
const everything = policy({ name: 'everything', kinds: ['core', 'plugin'], maxLevel: 'major' });
const bigPlan = createPlan(
  { ...desired, ignoreScope: 'remove', policies: [everything] },
  fleet,
  PLAN_OPTIONS,
);

let rangePlanMemo: ReturnType<typeof createPlan> | undefined;
/** The plan the cap-range tests render, made once for the three of them. */
function rangePlan(): ReturnType<typeof createPlan> {
  rangePlanMemo ??= createPlan(
    { ...desired, ignoreScope: 'remove', policies: [everything] },
    generateFleet({ sites: 300, pendingPerSite: 6, ignoredPerSite: 3 }),
    PLAN_OPTIONS,
  );
  return rangePlanMemo;
}

function balanced(markdown: string): void {
  expect(markdown.match(/<details/g)?.length ?? 0).toBe(markdown.match(/<\/details>/g)?.length ?? 0);
  expect((markdown.match(/^`{3,}/gm)?.length ?? 0) % 2).toBe(0);
}

describe('markdown size cap', () => {
  it('keeps a large plan under the default cap with a note pointing to the JSON plan', () => {
    const markdown = renderPlanMarkdown(bigPlan, { live: fleet, fullPlanHint: 'the `plan.json` artifact' });
    expect(markdown.length).toBeLessThanOrEqual(DEFAULT_MARKDOWN_CAP);
    expect(markdown.length).toBeGreaterThan(DEFAULT_MARKDOWN_CAP - 2_000);
    expect(markdown).toMatch(/\*\*Truncated:\*\* this comment shows \d+ of \d+ entries/);
    expect(markdown).toContain('the `plan.json` artifact');
    const order = ['High-risk actions', 'Ignore lists', 'Other updates', 'Notes'].map((title) =>
      markdown.indexOf(`<summary>${title}`),
    );
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    balanced(markdown);
  });

  it('holds at any cap', () => {
    for (const cap of [2_000, 5_000, 12_345, 65_000]) {
      const markdown = renderPlanMarkdown(bigPlan, { maxChars: cap });
      expect(markdown.length).toBeLessThanOrEqual(cap);
      balanced(markdown);
    }
  });

  // Every cap from 2,000 to 3,500, in three tests of 500 caps (a render each) to keep each short.
  it.each([2_000, 2_500, 3_000])(
    'holds at every cap of a range, however long the note for what is left out reads (caps from %i)',
    (from) => {
      // The note's counts change its length; caps that left room only for a shorter note overshot.
      const over: string[] = [];
      for (let cap = from; cap < from + 500; cap++) {
        const length = renderPlanMarkdown(rangePlan(), { maxChars: cap }).length;
        if (length > cap) over.push(`${cap}: ${length}`);
      }
      expect(over).toEqual([]);
    },
  );

  it('truncates exactly at the limit', () => {
    const small = createPlan(
      desired,
      generateFleet({ sites: 20, pendingPerSite: 6, ignoredPerSite: 3 }),
      PLAN_OPTIONS,
    );
    const full = renderPlanMarkdown(small, { maxChars: 1_000_000 });
    expect(full).not.toContain('Truncated');
    expect(renderPlanMarkdown(small, { maxChars: full.length })).toBe(full);
    const cut = renderPlanMarkdown(small, { maxChars: full.length - 1 });
    expect(cut).toContain('Truncated');
    expect(cut.length).toBeLessThanOrEqual(full.length - 1);
  });

  it('refuses a cap too small to hold the summary', () => {
    expect(() => renderPlanMarkdown(bigPlan, { maxChars: 100 })).toThrow(/at least/);
  });
});
