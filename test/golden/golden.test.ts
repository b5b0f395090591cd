/**
 * Golden files: each case's plan as text (by site and by item), markdown and JSON (alone and with
 * groups by item). Run with
 * UPDATE_GOLDEN=1 to rewrite the files after an intended change, then review the diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/index.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { PLAN_OPTIONS } from '../plan/builders.js';
import { GOLDEN_CASES } from './cases.js';

const here = dirname(fileURLToPath(import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';

function checkGolden(file: string, actual: string): void {
  if (update || !existsSync(file)) {
    if (!update) throw new Error(`missing golden file ${file}: run with UPDATE_GOLDEN=1`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

describe.each(GOLDEN_CASES)('golden case $name', (golden) => {
  const options = golden.targetSiteIds
    ? { ...PLAN_OPTIONS, targetSiteIds: golden.targetSiteIds }
    : PLAN_OPTIONS;
  const plan = createPlan(golden.desired, golden.live, options);
  const dir = join(here, golden.name);

  it('renders text grouped by site', () => checkGolden(join(dir, 'plan.txt'), renderPlanText(plan)));
  it('renders text grouped by item', () =>
    checkGolden(join(dir, 'plan.by-item.txt'), renderPlanText(plan, { groupBy: 'item' })));
  it('renders markdown', () =>
    checkGolden(join(dir, 'plan.md'), renderPlanMarkdown(plan, { live: golden.live })));
  it('renders json', () => checkGolden(join(dir, 'plan.json'), renderPlanJson(plan)));
  it('renders json with groups by item', () =>
    checkGolden(join(dir, 'plan.by-item.json'), renderPlanJson(plan, { groupBy: 'item' })));
});
