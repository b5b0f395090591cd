import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/index.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
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
