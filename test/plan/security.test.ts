import { describe, expect, it } from 'vitest';
import { createPlan } from '../../src/plan/create.js';
import { createSecurityIndex, feedSlug, inRange } from '../../src/plan/security.js';
import type { Advisory, SecurityConfig } from '../../src/types.js';
import {
  allSites,
  desiredState,
  liveState,
  PLAN_OPTIONS,
  policy,
  site,
  siteIds,
  source,
  update,
  wave,
} from './builders.js';

const range = (from: string, fromInclusive: boolean, to: string, toInclusive: boolean) => ({
  from,
  fromInclusive,
  to,
  toInclusive,
});

const advisory = (partial: Partial<Advisory> = {}): Advisory => ({
  id: 'A1',
  kind: 'plugin',
  slug: 'akismet',
  title: 'Akismet XSS',
  cve: 'CVE-2026-1',
  cvss: 9.8,
  link: 'https://example.test/A1',
  affected: [range('*', true, '5.3.6', true)],
  patched: ['5.3.7'],
  ...partial,
});

const security = (partial: Partial<SecurityConfig> = {}): SecurityConfig => ({
  source: { type: 'file', path: 'feed.json', format: 'wordfence' },
  refreshAfter: { text: '1h', ms: 3_600_000 },
  maxAge: { text: '2d', ms: 172_800_000 },
  bypass: { soak: true, window: true },
  approval: { coreNeedsApproval: true, majorNeedsApproval: true },
  sourceRef: source(20),
  ...partial,
});

const FEED = { source: 'feed.json', fetched_at: PLAN_OPTIONS.now.toISOString() };

describe('matching a pending update against advisories', () => {
  it('honours each end of a range: inclusive, exclusive, open', () => {
    expect(inRange('1.0', range('1.0', true, '2.0', false))).toBe(true);
    expect(inRange('1.0', range('1.0', false, '2.0', false))).toBe(false);
    expect(inRange('2.0', range('1.0', true, '2.0', false))).toBe(false);
    expect(inRange('2.0', range('1.0', true, '2.0', true))).toBe(true);
    expect(inRange('0.1', range('*', true, '2.0', true))).toBe(true);
    expect(inRange('99', range('1.0', true, '*', true))).toBe(true);
    // Versions compare like the platform: 5.3.10 is above 5.3.9.
    expect(inRange('5.3.10', range('*', true, '5.3.9', true))).toBe(false);
  });

  it('maps the dashboard slug to the feed slug', () => {
    expect(feedSlug('plugin', 'akismet/akismet.php')).toBe('akismet');
    expect(feedSlug('plugin', 'hello.php')).toBe('hello');
    expect(feedSlug('theme', 'twentytwentyfour')).toBe('twentytwentyfour');
  });

  it('a fix is a target at or above a patched version and outside every affected range', () => {
    const index = createSecurityIndex([
      advisory(),
      advisory({ id: 'A2', affected: [range('5.0', true, '5.3.7', true)], patched: ['5.3.7'] }),
    ]);
    const verdict = index.judge({ kind: 'plugin', slug: 'akismet/akismet.php', from: '5.3.6', to: '5.3.7' });
    // A2 lists 5.3.7 as patched but also as affected: not fixed by it.
    expect(verdict?.fixed.map((a) => a.id)).toEqual(['A1']);
    expect(verdict?.unfixed.map((a) => a.id)).toEqual(['A2']);
    expect(
      index.judge({ kind: 'plugin', slug: 'akismet/akismet.php', from: '5.3.7', to: '5.4' })?.fixed,
    ).toEqual([advisory({ id: 'A2', affected: [range('5.0', true, '5.3.7', true)], patched: ['5.3.7'] })]);
    expect(index.judge({ kind: 'plugin', slug: 'other/other.php', from: '1', to: '2' })).toBeUndefined();
    expect(index.judge({ kind: 'theme', slug: 'akismet', from: '5.3.6', to: '5.3.7' })).toBeUndefined();
  });
});

describe('security updates in a plan', () => {
  const soaking = policy({
    name: 'p',
    selection: allSites(),
    minReleaseAge: { text: '7d', ms: 7 * 86_400_000 },
    window: { schedule: ['* 3 * * *'], timezone: 'UTC' },
  });
  const live = liveState({
    sites: [site(1), site(2), site(3)],
    pending: [
      update(1, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7'),
      update(2, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7'),
      update(3, 'plugin', 'classic-editor/classic-editor.php', '1.6', '1.6.1'),
    ],
  });

  it('skip soak and window as `bypass` says; routine updates wait', () => {
    const desired = desiredState({ policies: [soaking], security: security() });
    const plan = createPlan(desired, live, {
      ...PLAN_OPTIONS,
      security: { advisories: [advisory()], feed: FEED },
    });
    expect(plan.actions.map((a) => `${a.site_id} ${a.slug}`)).toEqual([
      '1 akismet/akismet.php',
      '2 akismet/akismet.php',
    ]);
    expect(plan.actions[0]?.reason).toMatch(
      /^security fix of CVE-2026-1 \(CVSS 9\.8\); policy "p" allows patch updates/,
    );
    expect(plan.gates).toBeUndefined();
    // Without the feed the same plan updates nothing.
    expect(createPlan(desired, live, PLAN_OPTIONS).actions).toEqual([]);
  });

  it('with bypass [soak] only, the window still holds them', () => {
    const desired = desiredState({
      policies: [soaking],
      security: security({ bypass: { soak: true, window: false } }),
    });
    const plan = createPlan(desired, live, {
      ...PLAN_OPTIONS,
      security: { advisories: [advisory()], feed: FEED },
    });
    expect(plan.actions).toEqual([]);
    expect(plan.security?.vulnerable.map((v) => [v.fix, v.site_ids])).toEqual([['not-planned', [1, 2]]]);
  });

  it('are judged by security.approval, routine updates by approval', () => {
    const open = policy({ name: 'p', selection: allSites() });
    const desired = desiredState({
      policies: [open],
      approval: { maxSitesWithoutApproval: 0, coreNeedsApproval: true, majorNeedsApproval: true },
      security: security({
        approval: { maxSitesWithoutApproval: 5, coreNeedsApproval: true, majorNeedsApproval: true },
      }),
    });
    const onlyFixes = liveState({ sites: live.sites, pending: live.pending.slice(0, 2) });
    const options = { ...PLAN_OPTIONS, security: { advisories: [advisory()], feed: FEED } };
    expect(createPlan(desired, onlyFixes, options).needs_approval).toBe(false);
    const mixed = createPlan(desired, live, options);
    expect(mixed.needs_approval).toBe(true);
    expect(mixed.notes.find((n) => n.kind === 'needs-approval')?.message).toBe(
      'updates 1 site, more than approval.max_sites (0)',
    );
  });

  it('still wait for their wave; then the site is listed as vulnerable, fix not planned', () => {
    const desired = desiredState({
      policies: [policy({ name: 'p', selection: allSites() })],
      waves: [
        wave('canary', siteIds(1)),
        {
          ...wave('rest', siteIds(2)),
          after: { wave: 'canary', healthyFor: { text: '24h', ms: 86_400_000 } },
        },
      ],
      security: security(),
    });
    const plan = createPlan(desired, live, {
      ...PLAN_OPTIONS,
      security: { advisories: [advisory()], feed: FEED },
    });
    expect(plan.actions.filter((a) => a.slug === 'akismet/akismet.php').map((a) => a.site_id)).toEqual([1]);
    expect(plan.security?.updates.map((u) => u.site_ids)).toEqual([[1]]);
    expect(plan.security?.vulnerable.map((v) => [v.fix, v.site_ids])).toEqual([['not-planned', [2]]]);
  });

  it('a vulnerable version no pending release fixes is noted as vulnerable, no fix', () => {
    const desired = desiredState({
      policies: [policy({ name: 'p', selection: allSites() })],
      security: security(),
    });
    const unfixed = advisory({ patched: [], affected: [range('*', true, '*', true)] });
    const plan = createPlan(desired, live, {
      ...PLAN_OPTIONS,
      security: { advisories: [unfixed], feed: FEED },
    });
    expect(plan.security?.vulnerable.map((v) => [v.fix, v.from, v.site_ids])).toEqual([
      ['no-fix', '5.3.6', [1, 2]],
    ]);
    expect(plan.notes.find((n) => n.kind === 'vulnerable')).toEqual({
      item: { kind: 'plugin', slug: 'akismet/akismet.php' },
      kind: 'vulnerable',
      message:
        'plugin akismet/akismet.php is on a vulnerable version that no pending update fixes (see the security section)',
      site_ids: [1, 2],
    });
  });
});
