import { describe, expect, it } from 'vitest';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { run, savePlan, writesSent } from './cli-helpers.js';
import { CONFIG, startWorld } from './world.js';

/** `apply --reviewed PLANFILE`: the merge flow runs the reviewed subset of a fresh plan. */

const openWorld = closedAfterEach(startWorld);

describe.each(['spec', 'compat-6.1', 'next'] as SandboxProfile[])(
  'svc-gitops apply --reviewed (%s)',
  (profile) => {
    it('runs only reviewed actions still needed; reports vanished and new unreviewed ones', async () => {
      const world = await openWorld({ profile });
      savePlan(world, (await world.plan()).plan, '/work/reviewed.json');
      // After the review: one reviewed update was done by hand, one new update appeared.
      await world.control('DELETE', 'pending', { site: 2, kind: 'plugin', slug: 'akismet/akismet.php' });
      await world.control('POST', 'pending', {
        site: 4,
        kind: 'plugin',
        slug: 'wordfence/wordfence.php',
        to: '7.0.1',
      });
      const result = await run(world, ['apply', '--reviewed', 'reviewed.json', '--format', 'json']);
      expect(result.stderr).not.toContain('error');
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report.approval).toBe('reviewed');
      expect(
        report.reviewed.not_needed.map((a: { site_id: number; slug: string }) => [a.site_id, a.slug]),
      ).toEqual([[2, 'akismet/akismet.php']]);
      expect(
        report.reviewed.unreviewed.map((a: { site_id: number; slug: string }) => [a.site_id, a.slug]),
      ).toEqual([[4, 'wordfence/wordfence.php']]);
      expect(report.counts.failed).toBe(0);
      expect(report.counts.blocked).toBe(1);
      // The unreviewed update is still pending: it waits for the next review.
      const next = await world.plan();
      expect(next.plan.actions.map((a) => [a.op, a.site_id, a.slug])).toEqual([
        ['update', 4, 'wordfence/wordfence.php'],
      ]);
    });
  },
);

describe('svc-gitops apply --reviewed refusals', () => {
  it('refuses when the merged config is not the reviewed one, with nothing sent', async () => {
    const world = await openWorld();
    savePlan(world, (await world.plan()).plan, '/work/reviewed.json');
    world.writeConfig(CONFIG.replace('max: minor', 'max: patch'));
    const result = await run(world, ['apply', '--reviewed', 'reviewed.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[PREVIEW_REQUIRED]');
    expect(result.stderr).toContain('differ from the ones the reviewed plan was made from');
    expect(await writesSent(world)).toBe(0);
  });
});
