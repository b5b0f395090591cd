import { describe, expect, it } from 'vitest';
import { createPlan, REMAINING_WAVE } from '../../src/plan/index.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import type { Action, DesiredState, LiveState } from '../../src/types.js';
import { svcErrorSync } from '../helpers/errors.js';
import {
  ABILITIES,
  desiredState,
  hold,
  ignored,
  ignoreRule,
  liveState,
  PLAN_OPTIONS,
  policy,
  REST,
  select,
  site,
  siteIds,
  update,
  wave,
} from './builders.js';

const plan = (desired: DesiredState, live: LiveState, targetSiteIds?: number[]) =>
  createPlan(desired, live, targetSiteIds ? { ...PLAN_OPTIONS, targetSiteIds } : PLAN_OPTIONS);
const brief = (actions: Action[]) => actions.map((a) => `${a.op} ${a.site_id} ${a.kind} ${a.slug}`);
const pluginsMinor = policy({ name: 'plugins', kinds: ['plugin'], maxLevel: 'minor' });

describe('ignores: pair, then diff', () => {
  it('plans an ignore when no live ignore covers all versions', () => {
    const live = liveState({
      sites: [site(1), site(2), site(3)],
      ignores: [
        ignored(1, 'plugin', 'hello.php', { versions: ['1.7'] }),
        ignored(2, 'plugin', 'hello.php', { origin: 'global' }),
        ignored(3, 'plugin', 'hello.php'),
      ],
    });
    const result = plan(desiredState({ ignores: [ignoreRule({ plugins: ['hello.php'] })] }), live);
    expect(brief(result.actions)).toEqual(['ignore 1 plugin hello.php']);
    expect(result.actions[0]?.reason).toContain('live ignores only 1.7');
    expect(result.actions[0]?.risk).toBe('low');
  });

  it('words an ignore the same whatever order the dashboard lists versions and moves in', () => {
    const desired = desiredState({ ignores: [ignoreRule({ core: true, plugins: ['hello.php'] })] });
    const facts = (reverse: boolean) => {
      const order = <T>(list: T[]) => (reverse ? [...list].reverse() : list);
      return liveState({
        sites: [site(1)],
        // Core listed twice: the ignore is named after its lowest move, not the first listed.
        pending: order([
          update(1, 'core', 'wordpress', '6.0', '6.1', 'WordPress 6.1'),
          update(1, 'core', 'wordpress', '6.0', '6.0.1', 'WordPress 6.0.1'),
        ]),
        ignores: [ignored(1, 'plugin', 'hello.php', { versions: order(['1.8', '1.7']) })],
      });
    };
    const [listed, reversed] = [plan(desired, facts(false)), plan(desired, facts(true))];
    expect(reversed.actions).toEqual(listed.actions);
    expect(listed.actions.map((a) => [a.slug, a.name])).toEqual([
      ['wordpress', 'WordPress 6.0.1'],
      ['hello.php', 'hello.php'],
    ]);
    expect(listed.actions[1]?.reason).toContain('live ignores only 1.7, 1.8');
    // A version two live ignores list is named once.
    const twice = liveState({
      sites: [site(1)],
      ignores: [
        ignored(1, 'plugin', 'hello.php', { versions: ['1.7'] }),
        ignored(1, 'plugin', 'hello.php', { versions: ['1.7'], origin: 'global' }),
      ],
    });
    const hello = plan(desired, twice).actions.find((a) => a.slug === 'hello.php');
    expect(hello?.reason).toMatch(/live ignores only 1\.7$/);
  });

  it('unions the ignore rules that select a site', () => {
    const desired = desiredState({
      ignores: [
        ignoreRule({ plugins: ['a/a.php'] }),
        ignoreRule({ selection: siteIds(2), core: true, themes: ['t'] }),
      ],
    });
    const result = plan(desired, liveState({ sites: [site(1), site(2)] }));
    expect(brief(result.actions)).toEqual([
      'ignore 1 plugin a/a.php',
      'ignore 2 core wordpress',
      'ignore 2 plugin a/a.php',
      'ignore 2 theme t',
    ]);
  });

  it('unignores undesired per-site ignores only under ignoreScope remove with the capability', () => {
    const live = liveState({
      sites: [site(1)],
      ignores: [ignored(1, 'plugin', 'old.php'), ignored(1, 'theme', 'g', { origin: 'global' })],
    });
    expect(brief(plan(desiredState({ ignoreScope: 'remove' }), live).actions)).toEqual([
      'unignore 1 plugin old.php',
    ]);
    const rest = plan(desiredState({ ignoreScope: 'remove' }), { ...live, capabilities: REST });
    expect(rest.actions).toEqual([]);
    expect(rest.notes.map((n) => n.kind)).toEqual(['cannot-unignore', 'unmanaged-ignore']);
    const report = plan(desiredState({ ignoreScope: 'report' }), live);
    expect(report.actions).toEqual([]);
    expect(report.notes.map((n) => n.kind)).toEqual(['unmanaged-ignore', 'unmanaged-ignore']);
    expect(plan(desiredState({ ignoreScope: 'keep' }), live).notes).toEqual([]);
  });

  it('notes, instead of planning, ignores the dashboard cannot make, and keeps those items from updates', () => {
    const live = liveState({
      sites: [site(1)],
      pending: [
        update(1, 'plugin', 'x/x.php', '1.0', '1.0.1'),
        update(1, 'core', 'wordpress', '6.4', '6.4.1'),
      ],
    });
    const desired = desiredState({
      ignores: [ignoreRule({ plugins: ['x/x.php'], core: true })],
      policies: [pluginsMinor, policy({ name: 'core', kinds: ['core'], maxLevel: 'patch' })],
    });
    const rest = plan(desired, { ...live, capabilities: REST });
    expect(rest.actions).toEqual([]);
    expect(rest.notes.map((n) => `${n.kind} ${n.item?.kind}`)).toEqual([
      'cannot-ignore core',
      'cannot-ignore plugin',
    ]);
    expect(rest.notes[1]?.message).toContain('REST API cannot ignore it');
    const noCore = plan(desired, { ...live, capabilities: { ...ABILITIES, canIgnoreCore: false } });
    expect(brief(noCore.actions)).toEqual(['ignore 1 plugin x/x.php']);
    expect(noCore.notes.map((n) => n.kind)).toEqual(['cannot-ignore']);
  });

  it('never touches unselected or unreadable sites, and notes the unreadable ones', () => {
    const live = liveState({
      sites: [site(1), site(2), site(3)],
      ignores: [ignored(1, 'plugin', 'x.php'), ignored(2, 'plugin', 'x.php'), ignored(3, 'plugin', 'x.php')],
      pending: [
        update(2, 'plugin', 'y/y.php', '1.0', '1.0.1'),
        update(3, 'plugin', 'y/y.php', '1.0', '1.0.1'),
      ],
      unreadable: [{ siteId: 3, url: site(3).url, code: 'svc_site_offline', message: 'offline' }],
    });
    const desired = desiredState({
      sites: select([{ type: 'all' }], [{ type: 'id', id: 1 }]),
      ignoreScope: 'remove',
      policies: [pluginsMinor],
    });
    const result = plan(desired, live);
    expect(brief(result.actions)).toEqual(['unignore 2 plugin x.php', 'update 2 plugin y/y.php']);
    expect(result.notes).toMatchObject([{ kind: 'unreadable-site', site_ids: [3] }]);
  });

  it('notes sites the desired state names but the dashboard does not list', () => {
    const desired = desiredState({
      sites: select([
        { type: 'id', id: 1 },
        { type: 'id', id: 77 },
        { type: 'domain', domain: 'WWW.site1.example.test' },
        { type: 'domain', domain: 'gone.example.test' },
      ]),
    });
    const notes = plan(desired, liveState({ sites: [site(1)] })).notes;
    expect(notes.map((n) => `${n.kind}: ${n.message}`)).toEqual([
      'unknown-site: desired state selects domain gone.example.test, which the dashboard does not list',
      'unknown-site: desired state selects site id 77, which the dashboard does not list',
    ]);
  });

  it('notes an ignore rule, policy, hold or wave that names a site the dashboard does not list (a typo)', () => {
    const typo = select([{ type: 'domain', domain: 'site1.exmaple.test' }]);
    const desired = desiredState({
      ignores: [ignoreRule({ selection: typo, themes: ['t'] }), ignoreRule({ themes: ['u'] })],
      policies: [policy({ name: 'minor', selection: select([{ type: 'id', id: 404 }]) })],
      holds: [hold({ kind: 'plugin', slug: 'a/a.php', selection: select([{ type: 'id', id: 1 }]) })],
      waves: [wave('canary', typo)],
    });
    const notes = plan(desired, liveState({ sites: [site(1)] })).notes;
    expect(notes.filter((n) => n.kind === 'unknown-site').map((n) => n.message)).toEqual([
      'ignore rule (svc-gitops.yaml:10) selects domain site1.exmaple.test, which the dashboard does not list',
      'policy "minor" (svc-gitops.yaml:20) selects site id 404, which the dashboard does not list',
      'wave "canary" selects domain site1.exmaple.test, which the dashboard does not list',
    ]);
  });

  it('restricts the plan to target sites and notes unknown ids', () => {
    const live = liveState({ sites: [site(1), site(2)] });
    const result = plan(desiredState({ ignores: [ignoreRule({ themes: ['t'] })] }), live, [2, 42]);
    expect(brief(result.actions)).toEqual(['ignore 2 theme t']);
    expect(result.notes).toMatchObject([{ kind: 'unknown-site', message: expect.stringContaining('42') }]);
  });
});

describe('updates', () => {
  const live = (pending: LiveState['pending'], ignores: LiveState['ignores'] = [], sites = [site(1)]) =>
    liveState({ sites, pending, ignores });

  it('applies policy kinds, slug globs and max level', () => {
    const desired = desiredState({
      policies: [
        policy({ name: 'no-woo', kinds: ['plugin'], exclude: ['woo*'], maxLevel: 'patch' }),
        policy({ name: 'woo', kinds: ['plugin'], include: ['woo*'], maxLevel: 'major' }),
      ],
    });
    const result = plan(
      desired,
      live([
        update(1, 'plugin', 'a/a.php', '1.0', '1.0.1'),
        update(1, 'plugin', 'b/b.php', '1.0', '1.1'),
        update(1, 'plugin', 'woocommerce/woocommerce.php', '8.9', '9.0'),
        update(1, 'theme', 't', '1.0', '1.0.1'),
        update(1, 'core', 'wordpress', '6.4', '6.4.1'),
      ]),
    );
    expect(brief(result.actions)).toEqual([
      'update 1 plugin a/a.php',
      'update 1 plugin woocommerce/woocommerce.php',
    ]);
    expect(result.actions.map((a) => a.risk)).toEqual(['medium', 'high']);
    expect(result.actions[1]?.reason).toContain('"woo" allows major');
  });

  it('measures versions with a leading word on their numbers: a v-prefixed major jump is major', () => {
    const pending = [
      update(1, 'plugin', 'a/a.php', 'v1.2.3', 'v2.0.0'),
      update(1, 'plugin', 'b/b.php', 'v9.3', 'v9.5'),
    ];
    const patchOnly = desiredState({
      policies: [policy({ name: 'p', kinds: ['plugin'], maxLevel: 'patch' })],
    });
    expect(plan(patchOnly, live(pending)).actions).toEqual([]);
    const pinned = desiredState({
      policies: [policy({ name: 'any', kinds: ['plugin'], maxLevel: 'major' })],
      holds: [hold({ kind: 'plugin', slug: 'b/b.php', maxVersion: '9.4' })],
    });
    const result = plan(pinned, live(pending));
    expect(result.actions.map((a) => `${a.slug} ${a.risk}`)).toEqual(['a/a.php high']);
    expect(result.notes.map((n) => `${n.kind} ${n.item?.slug}`)).toEqual(['held b/b.php']);
  });

  it('takes an unreported target version of a plugin, theme or core for a major move, not a patch', () => {
    // Only translations have no target version by nature; the REST listing can report an
    // empty one for anything, and then nobody can tell how far the update goes.
    const pending = [
      update(1, 'core', 'wordpress', '6.4.1', ''),
      update(1, 'plugin', 'a/a.php', '1.0', ''),
      update(1, 'translation', 'default', '6.4.1', ''),
    ];
    const patchOnly = desiredState({
      policies: [policy({ name: 'p', kinds: ['core', 'plugin', 'translation'], maxLevel: 'patch' })],
    });
    expect(brief(plan(patchOnly, live(pending)).actions)).toEqual(['update 1 translation default']);
    const any = desiredState({
      policies: [policy({ name: 'any', kinds: ['core', 'plugin', 'translation'], maxLevel: 'major' })],
      approval: { coreNeedsApproval: false, majorNeedsApproval: true },
    });
    const result = plan(any, live(pending));
    expect(result.actions.map((a) => `${a.kind}:${a.risk}`)).toEqual([
      'core:high',
      'plugin:high',
      'translation:medium',
    ]);
    expect(result.notes.map((n) => n.message)).toEqual(['2 major updates (approval.major)']);
    expect(renderPlanText(result)).toContain('plugin a/a.php 1.0 → (unreported version)');
    const pinned = plan(
      desiredState({ ...any, holds: [hold({ kind: 'plugin', slug: 'a/a.php', maxVersion: '1.4' })] }),
      live(pending),
    );
    expect(pinned.notes.find((n) => n.kind === 'held')?.message).toContain(
      'update to an unreported version is beyond the pin 1.4',
    );
  });

  it('classes core updates as high risk and translations as patch', () => {
    const desired = desiredState({
      policies: [policy({ name: 'all', kinds: ['core', 'translation'], maxLevel: 'patch' })],
    });
    const result = plan(
      desired,
      live([
        update(1, 'core', 'wordpress', '6.4.1', '6.4.2'),
        update(1, 'translation', 'default', '6.4.1', ''),
        update(1, 'translation', 'default', '6.4.1', ''),
      ]),
    );
    expect(result.actions.map((a) => `${a.kind}:${a.risk}`)).toEqual(['core:high', 'translation:medium']);
  });

  it('plans one update per item, the lowest move, whatever order the dashboard listed them in', () => {
    const desired = desiredState({
      policies: [policy({ name: 'all', kinds: ['translation'], maxLevel: 'minor' })],
    });
    const moves = [
      update(1, 'translation', 'default', '6.4.2', '6.5'),
      update(1, 'translation', 'default', '6.4.1', '6.4.2'),
      update(1, 'translation', 'default', '6.4.1', '6.4.3'),
    ];
    for (const listed of [moves, [...moves].reverse()]) {
      const result = plan(desired, live(listed));
      expect(result.actions.map((a) => `${a.from} → ${a.to}`)).toEqual(['6.4.1 → 6.4.2']);
    }
  });

  it('never updates an item that stays ignored after the plan', () => {
    const pending = [
      update(1, 'plugin', 'a/a.php', '1.0', '1.0.1'),
      update(1, 'plugin', 'b/b.php', '1.0', '1.0.1'),
      update(1, 'plugin', 'c/c.php', '1.0', '1.0.1'),
      update(1, 'plugin', 'd/d.php', '1.0', '1.0.1'),
    ];
    const ignores = [
      ignored(1, 'plugin', 'b/b.php', { versions: ['1.0.1'] }),
      ignored(1, 'plugin', 'c/c.php', { versions: ['0.9'] }),
      ignored(1, 'plugin', 'd/d.php', { origin: 'global' }),
    ];
    const desired = desiredState({
      ignores: [ignoreRule({ plugins: ['a/a.php'] })],
      policies: [pluginsMinor],
    });
    expect(brief(plan(desired, live(pending, ignores)).actions)).toEqual([
      'ignore 1 plugin a/a.php',
      'update 1 plugin c/c.php',
    ]);
    const flagged = plan(
      desiredState({ policies: [pluginsMinor] }),
      live(pending, [ignored(1, 'plugin', '*', { origin: 'site-flag' })]),
    );
    expect(flagged.actions).toEqual([]);
  });

  it('updates an item whose per-site ignore the plan removes', () => {
    const desired = desiredState({ ignoreScope: 'remove', policies: [pluginsMinor] });
    const result = plan(
      desired,
      live([update(1, 'plugin', 'b/b.php', '1.0', '1.0.1')], [ignored(1, 'plugin', 'b/b.php')]),
    );
    expect(brief(result.actions)).toEqual(['unignore 1 plugin b/b.php', 'update 1 plugin b/b.php']);
  });

  it('honours holds and pins with held notes', () => {
    const desired = desiredState({
      policies: [pluginsMinor],
      holds: [
        hold({ kind: 'plugin', slug: 'a/*', reason: 'broken' }),
        hold({ kind: 'plugin', slug: 'b/b.php', maxVersion: '2.1' }),
      ],
    });
    const result = plan(
      desired,
      live(
        [
          update(1, 'plugin', 'a/a.php', '1.0', '1.0.1'),
          update(1, 'plugin', 'b/b.php', '2.0', '2.1.3'),
          update(2, 'plugin', 'b/b.php', '2.1', '2.2'),
        ],
        [],
        [site(1), site(2)],
      ),
    );
    expect(brief(result.actions)).toEqual(['update 1 plugin b/b.php']);
    expect(result.notes.map((n) => `${n.kind} ${n.site_ids} ${n.item?.slug}`)).toEqual([
      'held 1 a/a.php',
      'held 2 b/b.php',
    ]);
    expect(result.notes[0]?.message).toContain('broken');
  });

  it('merges the held notes of sites whose update goes to the same version', () => {
    const desired = desiredState({
      policies: [pluginsMinor],
      holds: [hold({ kind: 'plugin', slug: 'b/b.php', maxVersion: '2.1' })],
    });
    const pending = [
      update(3, 'plugin', 'b/b.php', '2.1', '2.2'),
      update(1, 'plugin', 'b/b.php', '2.0.5', '2.2'),
      update(2, 'plugin', 'b/b.php', '2.1.1', '2.3'),
    ];
    const result = plan(desired, live(pending, [], [site(1), site(2), site(3)]));
    expect(result.actions).toEqual([]);
    expect(result.notes.map((n) => [n.site_ids, n.message])).toEqual([
      [[1, 3], 'plugin b/b.php update to 2.2 is beyond the pin 2.1 (svc-gitops.yaml:40)'],
      [[2], 'plugin b/b.php update to 2.3 is beyond the pin 2.1 (svc-gitops.yaml:40)'],
    ]);
  });

  it('skips disconnected and suspended sites with a note', () => {
    const sites = [site(1, { status: 'disconnected' }), site(2, { status: 'suspended' })];
    const result = plan(
      desiredState({ policies: [pluginsMinor] }),
      live(
        [update(1, 'plugin', 'a/a.php', '1.0', '1.0.1'), update(2, 'plugin', 'a/a.php', '1.0', '1.0.1')],
        [],
        sites,
      ),
    );
    expect(result.actions).toEqual([]);
    expect(result.notes.map((n) => [n.kind, n.site_ids, n.message])).toEqual([
      ['offline-site', [1], 'disconnected: 1 change was not planned; plan again once connected'],
      ['offline-site', [2], 'suspended: 1 change was not planned; plan again once connected'],
    ]);
  });

  it('notes the offline sites of one status once, with the changes they hold back together', () => {
    const sites = [1, 2, 3].map((id) => site(id, { status: 'disconnected' }));
    const pending = [1, 2, 3, 3].map((id, i) => update(id, 'plugin', `p${i}/p.php`, '1.0', '1.0.1'));
    const result = plan(desiredState({ policies: [pluginsMinor] }), live(pending, [], sites));
    expect(result.notes).toEqual([
      {
        kind: 'offline-site',
        site_ids: [1, 2, 3],
        site_urls: sites.map((s) => s.url),
        message: 'disconnected: 4 changes were not planned; plan again once connected',
      },
    ]);
  });

  it('keeps the lowest address of a site listed twice as unreadable, whatever the order', () => {
    const entry = (url: string) => ({ siteId: 4, url, code: 'E', message: 'm' });
    const [a, b] = [entry('https://b.test/'), entry('https://a.test/')];
    for (const unreadable of [
      [a, b],
      [b, a],
    ]) {
      const note = plan(desiredState(), { ...live([], [], []), unreadable }).notes[0];
      expect(note).toMatchObject({ site_ids: [4], site_urls: ['https://a.test/'] });
    }
  });

  it('names unreadable sites with their addresses, in site order, each once', () => {
    const entry = (id: number, url: string) => ({
      siteId: id,
      url,
      code: 'svc_site_offline',
      message: 'offline',
    });
    const unreadable = [entry(5, 'https://five.test/'), entry(3, 'https://three.test/')];
    const result = plan(desiredState(), { ...live([], [], [site(1)]), unreadable });
    const note = result.notes.find((n) => n.kind === 'unreadable-site');
    expect(note).toMatchObject({
      site_ids: [3, 5],
      site_urls: ['https://three.test/', 'https://five.test/'],
    });
  });

  it('lists every site a repeated note is about, once, in one note', () => {
    const desired = desiredState({ ignoreScope: 'report' });
    const ignores = [3, 1, 2].map((id) => ignored(id, 'plugin', 'old.php'));
    const result = plan(desired, live([], ignores, [site(1), site(2), site(3)]));
    expect(result.notes.map((n) => [n.kind, n.item?.slug, n.site_ids])).toEqual([
      ['unmanaged-ignore', 'old.php', [1, 2, 3]],
    ]);
  });

  it('gives an offline site no ignore or unignore actions either, only its note', () => {
    const sites = [site(1, { status: 'disconnected' }), site(2)];
    const desired = desiredState({
      ignores: [ignoreRule({ plugins: ['hello.php'] })],
      ignoreScope: 'remove',
    });
    const result = plan(desired, live([], [ignored(1, 'plugin', 'old.php')], sites));
    expect(result.actions.map((a) => `${a.op} ${a.site_id} ${a.slug}`)).toEqual(['ignore 2 hello.php']);
    expect(result.notes.map((n) => `${n.kind} ${n.site_ids}`)).toEqual(['offline-site 1']);
    expect(result.notes[0]?.message).toContain('2 changes were not planned');
  });

  it('assigns waves by first match, with an implicit last wave, and orders updates by wave', () => {
    const desired = desiredState({
      policies: [pluginsMinor],
      waves: [wave('canary', siteIds(3)), wave('early', siteIds(3, 2))],
    });
    const pending = [1, 2, 3].map((id) => update(id, 'plugin', 'a/a.php', '1.0', '1.0.1'));
    const result = plan(desired, live(pending, [], [site(1), site(2), site(3)]));
    expect(result.actions.map((a) => `${a.site_id}:${a.wave}`)).toEqual([
      '3:canary',
      '2:early',
      `1:${REMAINING_WAVE}`,
    ]);
    const noWaves = plan(desiredState({ policies: [pluginsMinor] }), live(pending, [], [site(1)]));
    expect(noWaves.actions[0]).not.toHaveProperty('wave');
    expect(noWaves).not.toHaveProperty('wave_limits');
  });

  it('carries the failure threshold of every named wave it uses (issue 21, finding 3)', () => {
    const desired = desiredState({
      policies: [pluginsMinor],
      waves: [wave('canary', siteIds(3), 0), wave('early', siteIds(2), 2), wave('unused', siteIds(9), 5)],
    });
    const pending = [1, 2, 3].map((id) => update(id, 'plugin', 'a/a.php', '1.0', '1.0.1'));
    const result = plan(desired, live(pending, [], [site(1), site(2), site(3)]));
    expect(result.wave_limits).toEqual({ canary: 0, early: 2 });
  });
});

describe('approval', () => {
  const pending = [
    update(1, 'core', 'wordpress', '6.4', '7.0'),
    update(2, 'plugin', 'a/a.php', '1.0', '1.0.1'),
  ];
  const live = liveState({ sites: [site(1), site(2)], pending });
  const policies = [policy({ name: 'everything', kinds: ['core', 'plugin'], maxLevel: 'major' })];

  it('needs approval for too many sites, core and major updates', () => {
    const result = plan(
      desiredState({
        policies,
        approval: { maxSitesWithoutApproval: 1, coreNeedsApproval: true, majorNeedsApproval: true },
      }),
      live,
    );
    expect(result.needs_approval).toBe(true);
    expect(result.notes.filter((n) => n.kind === 'needs-approval')).toHaveLength(3);
  });

  it('does not need approval within the rules', () => {
    const result = plan(
      desiredState({
        policies,
        approval: { maxSitesWithoutApproval: 2, coreNeedsApproval: false, majorNeedsApproval: false },
      }),
      live,
    );
    expect(result.needs_approval).toBe(false);
    expect(result.summary).toEqual({ ignore: 0, unignore: 0, update: 2, sites: 2, high_risk: 1 });
  });
});

describe('plan envelope', () => {
  it('records times, dashboard without credentials and fingerprints of touched sites only', () => {
    const live = liveState({
      dashboardUrl: 'https://u:p@dash.test/wp/?token=x#y',
      sites: [site(1), site(2)],
    });
    const result = plan(
      desiredState({ ignores: [ignoreRule({ selection: siteIds(2), themes: ['t'] })] }),
      live,
    );
    expect(result.created_at).toBe('2026-03-01T12:00:00.000Z');
    expect(result.expires_at).toBe('2026-03-01T13:00:00.000Z');
    expect(result.dashboard.url).toBe('https://dash.test/wp/');
    expect(Object.keys(result.fingerprints)).toEqual(['2']);
    expect(result.desired_digest).toBe(desiredState().digest);
  });

  it('rejects a non-positive lifetime with a usage error', () => {
    const call = () => createPlan(desiredState(), liveState(), { now: PLAN_OPTIONS.now, lifetimeMinutes: 0 });
    const error = svcErrorSync(call);
    expect(error.code).toBe('USAGE');
    expect(error.message).toMatch(/lifetime/);
  });
});
