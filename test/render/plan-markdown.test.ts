import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/index.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import type { Action, Plan } from '../../src/types.js';
import { GOLDEN_CASES } from '../golden/cases.js';
import {
  desiredState,
  ignored,
  ignoreRule,
  liveState,
  PLAN_OPTIONS,
  site,
  siteIds,
} from '../plan/builders.js';

describe('renderPlanMarkdown', () => {
  it('lists the ignore-list diffs by ascending site, whichever operations a site has', () => {
    // Site 2 only loses an ignore, site 5 only gains one: the plan lists ignores before
    // unignores, so site 5's action comes first; the diffs still go by site.
    const live = liveState({
      sites: [site(2), site(5), site(7)],
      ignores: [ignored(2, 'plugin', 'old.php'), ignored(7, 'plugin', 'old.php')],
    });
    const desired = desiredState({
      ignoreScope: 'remove',
      ignores: [ignoreRule({ selection: siteIds(5, 7), plugins: ['x.php'] })],
    });
    const plan = createPlan(desired, live, PLAN_OPTIONS);
    expect(plan.actions.map((a) => `${a.op} ${a.site_id}`)).toEqual([
      'ignore 5',
      'ignore 7',
      'unignore 2',
      'unignore 7',
    ]);
    for (const options of [{}, { live }]) {
      const markdown = renderPlanMarkdown(plan, options);
      const sites = [...markdown.matchAll(/^--- site (\d+) /gm)].map((match) => Number(match[1]));
      expect(sites).toEqual([2, 5, 7]);
    }
  });
});

describe('renderPlanMarkdown of a fleet', () => {
  // 10,000 sites, each with a few of 12 distinct changes: 40,000 actions.
  const mixed = GOLDEN_CASES.find((c) => c.name === 'mixed-fleet')!;
  const base = createPlan(mixed.desired, mixed.live, PLAN_OPTIONS);
  const actions: Action[] = [];
  for (let id = 1; id <= 10_000; id++) {
    for (const [k, action] of base.actions.entries()) {
      if ((id + k) % 3 === 0) continue;
      actions.push({ ...action, site_id: id, site_url: `https://site-${id}.fleet.test/` });
    }
  }
  const plan: Plan = { ...base, actions };

  it('shows one row per operation and item in its first 60 lines and stays under the cap, detail cut first', () => {
    const markdown = renderPlanMarkdown(plan);
    expect(markdown.length).toBeLessThanOrEqual(60_000);
    const head = markdown.split('\n').slice(0, 60).join('\n');
    const items = new Set(actions.map((a) => [a.op, a.kind, a.slug].join('|')));
    expect(head).toContain(`### Changes by item (${items.size})`);
    const rows = head.split('\n').filter((line) => /^\| [~+-] /.test(line));
    expect(rows).toHaveLength(items.size);
    // Each row counts its sites, whatever the versions and waves of its actions.
    for (const row of rows) expect(row).toMatch(/\| [\d,]+ \|/);
    expect(markdown).toContain('**Truncated:**');
    // Copyable addresses: a code span, nothing inserted into them.
    expect(rows.join('\n')).toContain('`https://site-1.fleet.test/`');
  });

  it('orders the update detail by item with --group-by item', () => {
    const byItem = renderPlanMarkdown(base, { groupBy: 'item' });
    const items = [...byItem.matchAll(/^\| \d+ `[^`]+` \| ([^|]+) \|/gm)].map((m) => m[1]);
    const bySite = renderPlanMarkdown(base);
    expect(byItem).not.toBe(bySite);
    // Within the "Other updates" table, rows of one item stand together.
    const other = byItem.slice(byItem.indexOf('Other updates'));
    const otherItems = [...other.matchAll(/^\| \d+ `[^`]+` \| ([^|]+) \|/gm)].map((m) => m[1]);
    const firstSeen = otherItems.filter((item, i) => otherItems.indexOf(item) === i);
    expect(otherItems).toEqual(firstSeen.flatMap((item) => otherItems.filter((x) => x === item)));
    expect(items.length).toBeGreaterThan(0);
  });
});
