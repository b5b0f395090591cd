import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPlanFile } from '../../src/engine/index.js';
import { SvcError } from '../../src/errors.js';
import { createPlan, planId, verifyPlanId } from '../../src/plan/index.js';
import { planGroups } from '../../src/render/plan-groups.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import type { Plan } from '../../src/types.js';
import { GOLDEN_CASES } from '../golden/cases.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { PLAN_OPTIONS } from '../plan/builders.js';

/**
 * The `groups` section of a JSON plan (src/render/plan-groups.ts): written beside the actions
 * without touching a byte of the plan, left out of the id, checked and dropped on reading.
 */
const golden = GOLDEN_CASES.find((c) => c.name === 'mixed-fleet');
if (!golden) throw new Error('golden case mixed-fleet');
const plan = createPlan(golden.desired, golden.live, PLAN_OPTIONS);
const dir = tempDirForFile('svc-gitops-plan-groups-');

function saved(name: string, text: string): string {
  const path = join(dir, name);
  fs.writeFileSync(path, text);
  return path;
}

function refusal(path: string): string {
  try {
    readPlanFile(fs, path);
  } catch (error) {
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('PLAN_INVALID');
    return (error as SvcError).message;
  }
  throw new Error(`${path} was read`);
}

describe('JSON plan with groups', () => {
  it.each(['item', 'site'] as const)('by %s: the plain file plus the section, byte for byte', (by) => {
    const plain = renderPlanJson(plan).split('\n');
    const grouped = renderPlanJson(plan, { groupBy: by }).split('\n');
    const start = grouped.indexOf(`  "group_by": "${by}",`);
    const end = grouped.indexOf('  ],', start);
    expect(start).toBeGreaterThan(0);
    expect([...grouped.slice(0, start), ...grouped.slice(end + 1)]).toEqual(plain);
    expect(end - start - 2).toBe(planGroups(plan.actions, by).length);
  });

  it('is left out of the id, and nothing else is', () => {
    const parsed = JSON.parse(renderPlanJson(plan, { groupBy: 'item' })) as Plan;
    expect(verifyPlanId(parsed)).toBe(true);
    const { id: _id, ...rest } = parsed;
    expect(planId(rest)).toBe(plan.id);
    expect(planId({ ...rest, extra: 1 } as typeof rest)).not.toBe(plan.id);
    expect(verifyPlanId({ ...parsed, actions: parsed.actions.slice(1) })).toBe(false);
  });

  it('reads back as the plan without it, for plans saved before it existed too', () => {
    const plainPath = saved('plain.json', renderPlanJson(plan));
    const grouped = readPlanFile(fs, saved('grouped.json', renderPlanJson(plan, { groupBy: 'item' })));
    expect(Object.keys(grouped)).not.toContain('groups');
    expect(Object.keys(grouped)).not.toContain('group_by');
    expect(grouped).toEqual(readPlanFile(fs, plainPath));
    // The committed golden file is a plan saved without groups: its id holds and it reads as it is.
    const committed = join(import.meta.dirname, '..', 'golden', 'mixed-fleet', 'plan.json');
    const old = readPlanFile(fs, committed);
    expect(verifyPlanId(old)).toBe(true);
    expect(old).toEqual(JSON.parse(fs.readFileSync(committed, 'utf8')));
  });

  it('a plan without actions has an empty groups list, and reads back', () => {
    const none = GOLDEN_CASES.find((c) => c.name === 'no-changes');
    if (!none) throw new Error('golden case no-changes');
    const empty = createPlan(none.desired, none.live, PLAN_OPTIONS);
    expect(empty.actions).toEqual([]);
    const text = renderPlanJson(empty, { groupBy: 'site' });
    expect(text).toContain('\n  "groups": [],\n');
    expect(readPlanFile(fs, saved('empty.json', text)).id).toBe(empty.id);
  });

  it('groups that do not say what the actions say are refused, naming the entry', () => {
    const parsed = JSON.parse(renderPlanJson(plan, { groupBy: 'site' })) as Plan & {
      groups: Array<{ action_indices: number[] }>;
    };
    const outOfRange = structuredClone(parsed);
    outOfRange.groups[1]?.action_indices.push(plan.actions.length);
    expect(refusal(saved('range.json', JSON.stringify(outOfRange)))).toContain(
      'groups[1] does not match the actions (group_by site)',
    );
    const extra = structuredClone(parsed);
    extra.groups.push({ ...structuredClone(parsed.groups[0]), site_id: 999 } as never);
    expect(refusal(saved('extra.json', JSON.stringify(extra)))).toContain(
      `groups lists ${parsed.groups.length + 1} entries; the actions make ${parsed.groups.length} by site`,
    );
    const short = structuredClone(parsed);
    short.groups.pop();
    expect(refusal(saved('short.json', JSON.stringify(short)))).toContain(
      `groups lists ${parsed.groups.length - 1} entries; the actions make ${parsed.groups.length} by site`,
    );
  });
});
