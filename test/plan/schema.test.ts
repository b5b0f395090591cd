import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/index.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { GOLDEN_CASES } from '../golden/cases.js';
import { generateFleet, PLAN_OPTIONS } from './builders.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

describe('schemas/plan.schema.json', () => {
  it.each(GOLDEN_CASES)('accepts the plan of golden case $name', (golden) => {
    const plan = createPlan(golden.desired, golden.live, {
      ...PLAN_OPTIONS,
      ...(golden.targetSiteIds ? { targetSiteIds: golden.targetSiteIds } : {}),
    });
    expect(validate(JSON.parse(JSON.stringify(plan))), ajv.errorsText(validate.errors)).toBe(true);
  });

  it.each(['item', 'site'] as const)('accepts the golden plans with groups by %s', (by) => {
    for (const golden of GOLDEN_CASES) {
      const plan = createPlan(golden.desired, golden.live, {
        ...PLAN_OPTIONS,
        ...(golden.targetSiteIds ? { targetSiteIds: golden.targetSiteIds } : {}),
      });
      const grouped = JSON.parse(renderPlanJson(plan, { groupBy: by }));
      expect(validate(grouped), `${golden.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('accepts a plan of a generated fleet', () => {
    const golden = GOLDEN_CASES[0]!;
    const plan = createPlan(
      golden.desired,
      generateFleet({ sites: 200, pendingPerSite: 6, ignoredPerSite: 3 }),
      PLAN_OPTIONS,
    );
    expect(validate(plan), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('rejects plans that break the format', () => {
    const golden = GOLDEN_CASES[0]!;
    const plan = createPlan(golden.desired, golden.live, PLAN_OPTIONS);
    const broken = [
      { ...plan, format_version: 1 },
      { ...plan, format_version: 2 },
      { ...plan, notes: [{ kind: 'held', message: 'x', site_ids: [] }] },
      { ...plan, notes: [{ kind: 'held', message: 'x', site_id: 3 }] },
      { ...plan, notes: [{ kind: 'offline-site', message: 'x', site_urls: ['https://a.test/'] }] },
      { ...plan, dashboard: { url: 'https://user:pw@dash.test/' } },
      { ...plan, extra: true },
      { ...plan, actions: [{ ...plan.actions[0]!, op: 'delete' }] },
      { ...plan, actions: [{ ...plan.actions.find((a) => a.op === 'update')!, from: undefined }] },
      { ...plan, actions: [{ ...plan.actions.find((a) => a.op === 'ignore')!, kind: 'translation' }] },
      { ...plan, fingerprints: { abc: 'sha256:0' } },
      { ...plan, group_by: 'item' },
      { ...plan, groups: [] },
      { ...plan, group_by: 'slug', groups: [] },
      {
        ...plan,
        group_by: 'site',
        groups: [{ site_id: 1, site_url: 'https://a.test/', action_indices: [] }],
      },
      {
        ...plan,
        group_by: 'site',
        groups: [{ site_id: 1, site_url: 'https://a.test/', action_indices: [-1] }],
      },
      {
        ...plan,
        group_by: 'item',
        groups: [{ site_id: 1, site_url: 'https://a.test/', action_indices: [0] }],
      },
    ];
    for (const candidate of broken) expect(validate(JSON.parse(JSON.stringify(candidate)))).toBe(false);
  });
});
