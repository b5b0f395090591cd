import { afterEach, describe, expect, it } from 'vitest';
import { outcomesOfRunUpdates } from '../../src/apply/call-outcomes.js';
import type { Action } from '../../src/types.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

let h: Harness | undefined;
afterEach(() => h?.close());

/** The client against the next release's gated update abilities (dashboard-facts §9). */
describe('runUpdates against the next release', () => {
  it('previews with dry_run, then confirms with the preview token', async () => {
    h = await openHarness({ profile: 'next' });
    const result = await h
      .client()
      .runUpdates({ siteIds: [1, 2], items: [{ kind: 'plugin', slug: 'akismet/akismet.php' }] });
    expect(result.errors).toEqual([]);
    expect(result.updated.map((u) => `${u.siteId}:${u.slug}`).sort()).toEqual([
      '1:akismet/akismet.php',
      '2:akismet/akismet.php',
    ]);
    const stats = await h.stats();
    expect(stats.abilities['svc/run-updates-v1']).toBe(2);
    expect(stats.updates_run.map((u) => u.count)).toEqual([1, 1]);
  });

  it('reads skipped[]: an item a site-wide flag holds is reported, not counted as updated', async () => {
    h = await openHarness({ profile: 'next' });
    // Site 2's theme flag hides twentytwentyfive 1.0 → 1.1.
    const result = await h
      .client()
      .runUpdates({ siteIds: [2], items: [{ kind: 'theme', slug: 'twentytwentyfive' }] });
    expect(result.updated).toEqual([]);
    expect(result.skipped).toEqual([
      { siteId: 2, kind: 'theme', slug: 'twentytwentyfive', reason: 'ignored_site_flag' },
    ]);
    const action = {
      op: 'update',
      site_id: 2,
      site_url: 'https://beta.example.test/',
      kind: 'theme',
      slug: 'twentytwentyfive',
      name: 'Twenty Twenty-Five',
      risk: 'medium',
      reason: 'test',
    } as Action;
    expect(outcomesOfRunUpdates([action], result)).toEqual([
      {
        action,
        status: 'failed',
        code: 'SKIPPED',
        message: "the dashboard skipped it: the site's flag ignoring every update of its kind holds it",
      },
    ]);
    expect((await h.stats()).updates_run).toEqual([]);
  });

  it('refuses a preview that reaches past the planned items, before anything runs', async () => {
    h = await openHarness({ profile: 'next' });
    // Apply sends kinds together once it checked the planned product against the live state
    // (productChecked). A translation of the theme's folder that appears after that check is
    // matched by the same slug: the dashboard's dry run would update it too.
    await h.control('POST', 'pending', { site: 1, kind: 'translation', slug: 'astra', language: 'de_DE' });
    const run = h.client().runUpdates({
      siteIds: [1],
      items: [
        { kind: 'theme', slug: 'astra' },
        { kind: 'translation', slug: 'akismet' },
      ],
      productChecked: true,
    });
    await expect(run).rejects.toMatchObject({
      code: 'APPLY_FAILED',
      message:
        "the dashboard's dry run of svc/run-updates-v1 would also update 1 item(s) the plan does not contain (first: site 1 translation astra); nothing was run",
    });
    const stats = await h.stats();
    // The dry run only: no confirmed call, nothing updated.
    expect(stats.abilities['svc/run-updates-v1']).toBe(1);
    expect(stats.updates_run).toEqual([]);
  });
});
