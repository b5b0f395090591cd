import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, createPlan } from '../../src/plan/index.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import type { Action, Plan } from '../../src/types.js';
import { GOLDEN_CASES } from '../golden/cases.js';
import { desiredState, liveState, PLAN_OPTIONS } from '../plan/builders.js';

const mixed = GOLDEN_CASES.find((c) => c.name === 'mixed-fleet')!;
const plan = createPlan(mixed.desired, mixed.live, PLAN_OPTIONS);

describe('renderPlanText', () => {
  it('starts with the summary line', () => {
    expect(renderPlanText(plan).split('\n')[0]).toBe(
      '5 to ignore, 1 to unignore, 8 to update on 3 sites, 3 high risk',
    );
  });

  it('uses colour only when asked', () => {
    expect(renderPlanText(plan)).not.toContain('\u001b[');
    const coloured = renderPlanText(plan, { colour: true });
    expect(coloured).toContain('\u001b[32m+\u001b[39m');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(renderPlanText(plan));
  });

  it('leads with one line per distinct change, then the detail', () => {
    const text = renderPlanText(plan);
    expect(text).toContain('\nChanges (12 distinct):\n');
    expect(text).toContain(
      '  + ignore   plugin classic-editor/classic-editor.php on 3 sites: 1 https://site1.example.test/, 2 https://site2.example.test/, 3 https://www.Shop.example.test/\n',
    );
    expect(text.indexOf('Changes (')).toBeLessThan(text.indexOf('\nBy site:\n'));
  });

  it('groups by item with every action listed once', () => {
    const byItem = renderPlanText(plan, { groupBy: 'item' }).split('\nBy item:\n')[1] ?? '';
    const lines = byItem.split('\n').filter((line) => /^ {2}[+~-] /.test(line));
    expect(lines).toHaveLength(plan.actions.length);
    expect(byItem).toContain('\nplugin classic-editor/classic-editor.php\n');
  });

  it('neutralises control characters in every dashboard string of a line, in both groupings', () => {
    const hostile = '\u001b[2J\nfake\u202e';
    const update = plan.actions.find((action) => action.op === 'update' && action.kind === 'plugin')!;
    const action: Action = {
      ...update,
      slug: `x${hostile}`,
      from: `1${hostile}`,
      to: `2${hostile}`,
      reason: hostile,
    };
    const edited: Plan = { ...plan, actions: [action], notes: [] };
    for (const groupBy of ['site', 'item'] as const) {
      const text = renderPlanText(edited, { groupBy });
      expect(text).not.toMatch(/[\u001b\u202e]/);
      expect(text).not.toContain('%'); // cleaned, not URL-encoded
      // The distinct change's line, then the detail's (and the item heading when by item).
      expect(text.split('\n').filter((line) => line.includes('fake'))).toHaveLength(
        groupBy === 'site' ? 2 : 3,
      );
    }
  });

  it('neutralises control characters in a saved plan file’s own strings (show renders any file)', () => {
    // A plan file's id is only a hash of its content: anyone can write one whose times hold
    // terminal escapes, and `show` renders it.
    const hostile = '2099-01-01T00:00:00.000Z\u001b]0;owned\u0007\u001b[2J\nforged line\u202e';
    const edited: Plan = { ...plan, created_at: hostile, expires_at: hostile };
    for (const colour of [false, true]) {
      const text = renderPlanText(edited, { colour });
      // Only the renderer's own colours and line breaks are left.
      expect(text.replace(/\u001b\[\d+m/g, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
      expect(text.split('\n').filter((line) => line.includes('forged line'))).toHaveLength(1);
    }
  });

  it('groups by site in any action order, each site once with its actions in plan order', () => {
    const base = plan.actions[0]!;
    // A few ascending runs of sites (as a plan lists them) or many (an edited file).
    const runs = fc.array(fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 8 }), { maxLength: 24 });
    fc.assert(
      fc.property(runs, (siteRuns) => {
        const ids = siteRuns.flatMap((run) => [...run].sort((a, b) => a - b));
        const actions = ids.map((id, i) => ({
          ...base,
          site_id: id,
          site_url: `https://s${id}.test/`,
          slug: `p${i}`,
        }));
        // Grouped output = the actions stably sorted by site (each site's in plan order).
        const sorted = actions
          .map((a, i) => [a, i] as const)
          .sort(([a, i], [b, j]) => a.site_id - b.site_id || i - j);
        const text = renderPlanText({ ...plan, actions });
        expect(text).toBe(renderPlanText({ ...plan, actions: sorted.map(([a]) => a) }));
        expect(text.match(/^site \d+ /gm) ?? []).toHaveLength(new Set(ids).size);
      }),
      { numRuns: 300 },
    );
  });

  it('says so when there is nothing to do', () => {
    const empty = createPlan(desiredState(), liveState(), PLAN_OPTIONS);
    expect(renderPlanText(empty)).toMatch(
      /^No changes\. 0 to ignore, 0 to unignore, 0 to update on 0 sites\.\n.*\n\nThe live state matches the desired state\.\n$/,
    );
  });
});

describe('renderPlanJson', () => {
  it('is the saved plan: indented, one action per line, sorted record keys, newline at the end, round-trips', () => {
    const json = renderPlanJson(plan);
    expect(json.endsWith('}\n')).toBe(true);
    expect(Object.keys(JSON.parse(json)).slice(0, 3)).toEqual(['format_version', 'id', 'created_at']);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(plan)));
    expect(json).toContain('\n  "actions": [\n    {"kind":"');
    const actionLines = json.split('\n').filter((line) => line.includes('"op":'));
    expect(actionLines).toHaveLength(plan.actions.length);
    for (const line of actionLines) {
      const keys = Object.keys(JSON.parse(line.replace(/,$/, '')));
      expect(keys).toEqual([...keys].sort());
    }
  });

  it('writes records built in another key order with their keys sorted all the same', () => {
    const reversed = plan.actions.map(
      (action) => Object.fromEntries(Object.entries(action).reverse()) as unknown as Action,
    );
    const json = renderPlanJson({ ...plan, actions: reversed });
    expect(json).toBe(renderPlanJson(plan));
  });

  it('writes each action line as its canonical JSON, whatever its strings hold', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('"', '\\', '\u0000', '\ud800', '😀', '},{"'),
    );
    const action = fc.record(
      {
        from: text,
        kind: text,
        name: text,
        op: text,
        reason: text,
        risk: text,
        site_id: fc.integer(),
        site_url: text,
        slug: text,
        to: text,
        wave: text,
      },
      { requiredKeys: ['kind', 'name', 'op', 'reason', 'risk', 'site_id', 'site_url', 'slug'] },
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 12 }), (actions) => {
        const json = renderPlanJson({ ...plan, actions: actions as unknown as Action[] });
        const start = json.indexOf('"actions": [\n') + '"actions": [\n'.length;
        const lines =
          actions.length === 0 ? [] : json.slice(start, json.indexOf('\n  ]', start)).split(',\n');
        expect(lines.map((line) => line.trim())).toEqual(actions.map((a) => canonicalJson(a)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a "__proto__" member of a record it reorders', () => {
    const odd = JSON.parse(`{"reason":"r","__proto__":{"x":1},${JSON.stringify(plan.actions[0]).slice(1)}`);
    const parsed = JSON.parse(renderPlanJson({ ...plan, actions: [odd] })) as { actions: object[] };
    expect(Object.getOwnPropertyDescriptor(parsed.actions[0], '__proto__')?.value).toEqual({ x: 1 });
  });

  it('breaks lines only between records, whatever a string holds', () => {
    // A value may end in `},{`: its closing quote then completes the break sequence.
    const tricky = plan.actions.map((action, i) => ({
      ...action,
      name: i % 2 ? 'Evil},{' : '},{"op":"x"}\\',
      reason: '"},{"',
    }));
    const json = renderPlanJson({ ...plan, actions: tricky });
    expect((JSON.parse(json) as Plan).actions).toEqual(tricky);
    expect(json.split('\n').filter((line) => line.includes('"site_id"'))).toHaveLength(tricky.length);
  });

  it('writes more actions than one batch, each once and in order', () => {
    const many = Array.from({ length: 2_500 }, (_, i) => ({ ...plan.actions[0]!, site_id: i + 1 }));
    const parsed = JSON.parse(renderPlanJson({ ...plan, actions: many })) as Plan;
    expect(parsed.actions.map((action) => action.site_id)).toEqual(many.map((action) => action.site_id));
  });
});
