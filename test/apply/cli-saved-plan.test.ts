import { describe, expect, it } from 'vitest';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { reId, run, savePlan, writesSent } from './cli-helpers.js';
import { changeTouchedSite, maxRunsPerUpdate, startWorld } from './world.js';

/** `apply PLANFILE`: the guard's checks, each refusal with nothing sent. */

const openWorld = closedAfterEach(startWorld);

describe.each(['spec', 'compat-6.1', 'next'] as SandboxProfile[])(
  'svc-gitops apply PLANFILE (%s)',
  (profile) => {
    it('applies a saved plan once; applying the same file again is refused', async () => {
      const world = await openWorld({ profile });
      savePlan(world, (await world.plan()).plan);
      const first = await run(world, ['apply', 'plan.json']);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('approved by saved-plan');
      const second = await run(world, ['apply', 'plan.json']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('[PREVIEW_REQUIRED]');
      expect(second.stderr).toContain('single use');
      expect(maxRunsPerUpdate(await world.stats())).toBe(1);
    });

    it('refuses a stale plan (the sandbox changed a touched site) with nothing sent', async () => {
      const world = await openWorld({ profile });
      savePlan(world, (await world.plan()).plan);
      await changeTouchedSite(world);
      const result = await run(world, ['apply', 'plan.json']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('[PREVIEW_REQUIRED]');
      expect(result.stderr).toContain(
        'live state changed since the plan was made on 1 site(s): https://beta.fleet.test/',
      );
      expect(await writesSent(world)).toBe(0);
      expect((await world.stats()).updates_run).toEqual([]);
    });
  },
);

describe('svc-gitops apply PLANFILE refusals', () => {
  it('refuses an edited plan, another dashboard, an expired plan and a file that is no plan', async () => {
    const world = await openWorld();
    const { plan } = await world.plan();
    const edited = structuredClone(plan);
    edited.actions[0]!.slug = 'evil/evil.php';
    savePlan(world, edited, '/work/edited.json');
    savePlan(world, reId({ ...plan, dashboard: { url: 'https://other.example.test/' } }), '/work/other.json');
    savePlan(world, plan);
    world.fs.writeFileSync('/work/junk.json', '{"not": "a plan"');
    // A file passed by mistake (a settings file): its text is never quoted back.
    world.fs.writeFileSync('/work/secret.json', '{"applicationPassword": hunter2-secret}');
    // Notes are printed: an id list that smuggles a terminal escape is refused before that.
    const hostileNote = { kind: 'held', message: 'm', site_ids: ['\u001b[2J'] };
    savePlan(
      world,
      reId({ ...plan, notes: [hostileNote as unknown as Plan['notes'][number]] }),
      '/work/notes.json',
    );
    // Addresses must name exactly the listed sites, as strings.
    const unmatched = {
      kind: 'offline-site',
      message: 'm',
      site_ids: [1, 2],
      site_urls: ['https://a.test/'],
    };
    savePlan(
      world,
      reId({ ...plan, notes: [unmatched as unknown as Plan['notes'][number]] }),
      '/work/urls.json',
    );
    // Derived data must agree with the actions: views print the summary first.
    savePlan(world, reId({ ...plan, summary: { ...plan.summary, update: 0 } }), '/work/summary.json');
    const { summary: _dropped, ...noSummary } = plan;
    savePlan(world, reId(noSummary as Plan), '/work/no-summary.json');
    savePlan(world, reId({ ...plan, expires_at: '\u001b[2J2999' }), '/work/time.json');
    const expiredAt = new Date(Date.parse(plan.expires_at) + 1000);

    const cases: Array<[string[], string, string, object?]> = [
      [['apply', 'edited.json'], 'PREVIEW_REQUIRED', 'changed after planning'],
      [['apply', 'other.json'], 'PREVIEW_REQUIRED', 'was made for https://other.example.test/'],
      [['apply', 'plan.json'], 'PREVIEW_EXPIRED', `expired at ${plan.expires_at}`, { now: () => expiredAt }],
      [['apply', 'junk.json'], 'PLAN_INVALID', 'is not JSON'],
      [['show', 'secret.json'], 'PLAN_INVALID', 'is not JSON (a syntax error'],
      [['apply', 'notes.json'], 'PLAN_INVALID', 'notes.json:227:9: item 1 of `site_ids` must be an integer'],
      [['apply', 'urls.json'], 'PLAN_INVALID', 'notes[0] lists 1 site_urls for 2 site_ids'],
      [['apply', 'summary.json'], 'PLAN_INVALID', 'summary.update does not match the actions'],
      [['show', 'summary.json'], 'PLAN_INVALID', 'summary.update does not match the actions'],
      [['show', 'no-summary.json'], 'PLAN_INVALID', 'missing required key `summary`'],
      [['show', 'time.json'], 'PLAN_INVALID', '(at /expires_at)'],
    ];
    for (const [argv, code, text, options] of cases) {
      const result = await run(world, argv, options ?? {});
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stderr).toContain(`[${code}]`);
      expect(result.stderr).toContain(text);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stderr).not.toContain('hunter2');
    }
    expect(await writesSent(world)).toBe(0);
  });
});
