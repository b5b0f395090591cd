import { describe, expect, it } from 'vitest';
import { createPlan, deriveStatus } from '../../src/plan/index.js';
import type { LiveState, Plan, RolloutState } from '../../src/types.js';
import {
  allSites,
  desiredState,
  liveState,
  NOW,
  PLAN_OPTIONS,
  policy,
  siteIds,
  update,
  wave,
} from './builders.js';

/**
 * The groups a plan's own data makes (deriveStatus is pure): quarantined versions with the sites
 * they are held on, vulnerable sites with and without a fix, and a plan-wide halt. The gates'
 * notes (soak, window, wave order, holds) are planned for real in test/cli/status.test.ts.
 */
const site = (id: number) => ({
  id,
  url: `https://s${id}.test/`,
  name: `s${id}`,
  status: 'connected' as const,
});
const live: Pick<LiveState, 'sites' | 'pending'> = {
  sites: [1, 2, 3, 4].map(site),
  pending: [1, 2, 3, 4].map((siteId) => ({
    siteId,
    kind: 'plugin' as const,
    slug: 'akismet/akismet.php',
    name: 'Akismet',
    from: '5.3.6',
    to: '5.3.7',
  })),
};

function plan(extra: Partial<Plan>): Plan {
  return {
    format_version: 3,
    id: 'a'.repeat(64),
    created_at: '2026-11-23T10:00:00.000Z',
    expires_at: '2026-11-23T11:00:00.000Z',
    dashboard: { url: 'https://dash.test/' },
    desired_digest: 'sha256:0',
    actions: [],
    fingerprints: {},
    notes: [],
    summary: { ignore: 0, unignore: 0, update: 0, sites: 0, high_risk: 0 },
    needs_approval: false,
    ...extra,
  };
}

describe('deriveStatus of plans the planner made', () => {
  it('a wave left unhealthy holds the waves after it; a quarantined version is its own group', () => {
    const desired = desiredState({
      policies: [policy({ name: 'p', selection: allSites() })],
      waves: [wave('canary', siteIds(1, 2)), wave('rest', allSites())],
    });
    const live = liveState({
      sites: [1, 2, 3, 4].map((id) => site(id)),
      pending: [
        ...[1, 2, 3, 4].map((id) => update(id, 'plugin', 'akismet/akismet.php', '5.3.6', '5.3.7')),
        ...[3, 4].map((id) => update(id, 'plugin', 'hello/hello.php', '1.6', '1.7')),
      ],
    });
    const unhealthy = [{ site_id: 1, site_url: 'https://s1.test/', problem: 'HTTP 500' }];
    const state: RolloutState = {
      first_seen: {},
      waves: { canary: { updated_at: NOW.toISOString(), unhealthy_since: NOW.toISOString(), unhealthy } },
      quarantines: {
        'plugin akismet/akismet.php 5.3.7': { at: NOW.toISOString(), wave: 'canary', sites: unhealthy },
      },
    };
    const plan = createPlan(desired, live, { ...PLAN_OPTIONS, rollout: { state, health: {} } });
    const report = deriveStatus({ plan, live });
    expect(report.rollout_halt?.wave).toBe('canary');
    const quarantined = report.groups.find((g) => g.state === 'quarantined')!;
    expect(quarantined.rows.map((row) => [row.slug, row.versions, row.sites])).toEqual([
      ['akismet/akismet.php', '5.3.7', 4],
    ]);
    const held = report.groups.find((g) => g.state === 'held')!;
    expect(held.rows.map((row) => [row.slug, row.sites])).toEqual([['hello/hello.php', 2]]);
    expect(held.rows[0]!.detail).toContain('waits for wave "canary", which left 1 unhealthy site(s)');
    expect(report.groups.find((g) => g.state === 'pending')!.rows).toEqual([]);
  });
});

describe('deriveStatus', () => {
  it('shows a quarantined version with when, why, and the sites it is held on', () => {
    const report = deriveStatus({
      live,
      plan: plan({
        quarantines: [
          {
            kind: 'plugin',
            slug: 'akismet/akismet.php',
            version: '5.3.7',
            since: '2026-11-20T03:00:00.000Z',
            wave: 'canary',
            repair: [{ site_id: 1, site_url: 'https://s1.test/', problem: 'HTTP 500' }],
            held_sites: 3,
            in_desired_state: false,
          },
        ],
        notes: [
          {
            kind: 'held',
            site_ids: [2, 3, 4],
            item: { kind: 'plugin', slug: 'akismet/akismet.php' },
            message:
              'plugin akismet/akismet.php update to 5.3.7 is quarantined: wave "canary"\'s health check found 1 site(s) unhealthy after it (2026-11-20T03:00:00.000Z); the rollout state holds it until a hold of this version in the desired state takes over',
          },
        ],
      }),
    });
    const quarantined = report.groups.find((g) => g.state === 'quarantined')!;
    expect(quarantined).toMatchObject({ items: 1, sites: 3 });
    expect(quarantined.rows[0]).toMatchObject({
      versions: '5.3.7',
      sites: 3,
      first_sites: ['https://s2.test/', 'https://s3.test/', 'https://s4.test/'],
    });
    expect(quarantined.rows[0]!.detail).toBe(
      'since 2026-11-20T03:00:00.000Z: wave "canary"\'s health check found sites unhealthy after it; held by the rollout state; 1 site(s) to repair by hand',
    );
    // Shown once: as quarantined, not again as held.
    expect(report.groups.find((g) => g.state === 'held')!.rows).toEqual([]);
  });

  it('shows security updates, and vulnerable sites with no fix or a fix not planned', () => {
    const move = {
      kind: 'plugin' as const,
      slug: 'akismet/akismet.php',
      name: 'Akismet',
      from: '5.3.6',
      to: '5.3.7',
    };
    const report = deriveStatus({
      live,
      plan: plan({
        security: {
          feed: { source: 'https://feed.test/', fetched_at: '2026-11-23T09:00:00.000Z' },
          advisories: {
            a1: { title: 'XSS', cve: 'CVE-2026-0001', link: 'https://feed.test/a1' },
            a2: { title: 'SQLi', link: 'https://feed.test/a2' },
          },
          updates: [{ ...move, advisories: ['a1'], site_ids: [1] }],
          vulnerable: [
            { ...move, to: '', advisories: ['a2'], site_ids: [2, 3], fix: 'no-fix' },
            { ...move, advisories: ['a1'], site_ids: [4], fix: 'not-planned' },
          ],
        },
      }),
    });
    const vulnerable = report.groups.find((g) => g.state === 'vulnerable')!;
    expect(vulnerable).toMatchObject({ items: 1, sites: 4 });
    expect(vulnerable.rows.map((row) => [row.detail, row.sites])).toEqual([
      ['vulnerable, no fix released (SQLi)', 2],
      ['security update, will run now (CVE-2026-0001)', 1],
      ['vulnerable, fix pending but not planned (CVE-2026-0001)', 1],
    ]);
  });

  it('carries the rollout halt and reads only this dashboard’s last apply', () => {
    const halt = { wave: 'canary', since: '2026-11-22T00:00:00.000Z', unhealthy: [] };
    const record = (dashboard: string, time: string, outcome: string) => ({
      time,
      plan_id: time,
      dashboard,
      site_id: 1,
      site_url: 'https://s1.test/',
      kind: 'plugin' as const,
      slug: 'akismet/akismet.php',
      name: 'Akismet',
      outcome,
    });
    const report = deriveStatus({
      live,
      plan: plan({ rollout_halt: halt }),
      history: [
        record('https://dash.test/', '2026-11-21T00:00:00.000Z', 'failed'),
        record('https://dash.test/', '2026-11-22T00:00:00.000Z', 'done'),
        record('https://other.test/', '2026-11-23T00:00:00.000Z', 'failed'),
      ],
    });
    expect(report.rollout_halt).toEqual(halt);
    expect(report.last_apply).toEqual({
      time: '2026-11-22T00:00:00.000Z',
      plan_id: '2026-11-22T00:00:00.000Z',
      records: 1,
      failed: 0,
    });
    expect(report.groups.find((g) => g.state === 'failed')!.rows).toEqual([]);
  });
});
