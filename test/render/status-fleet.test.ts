import { describe, expect, it } from 'vitest';
import { benchDesiredState, generateFleet } from '../../scripts/bench/fixtures.js';
import { createPlan, deriveStatus, type StatusHistoryRecord } from '../../src/plan/index.js';
import { GITHUB_BODY_LIMIT, renderStatusMarkdown } from '../../src/render/index.js';
import type { DesiredState, StatusReport } from '../../src/types.js';
import { markdownStructure } from '../helpers/markdown-structure.js';

/**
 * The dashboard issue at the reference fleet's size: 10,000 generated sites (6 pending and 3
 * ignored updates per site on average, scripts/bench/fixtures.ts), planned for real with every
 * gate in use, and a history whose last apply failed on 5,000 sites with varied codes, so the
 * status has thousands of rows. The issue body must stay under GitHub's limit, keep every
 * group's heading and totals, say per group how many rows it left out, and still be well-formed
 * markdown.
 */
const NOW = new Date('2026-11-23T10:00:00Z');
const all = { include: [{ type: 'all' as const }], exclude: [] };
const at = (line: number) => ({ file: 'svc-gitops.yaml', line, col: 1, path: '/' });

function fleetDesired(): DesiredState {
  const base = benchDesiredState();
  const policy = base.policies[0]!;
  return {
    ...base,
    policies: [
      {
        ...policy,
        name: 'soaked',
        include: ['plugin-1*'],
        minReleaseAge: { text: '3d', ms: 3 * 86_400_000 },
      },
      // 11:00 in Berlin: closed.
      {
        ...policy,
        name: 'nightly',
        include: ['plugin-2*'],
        window: { schedule: ['* 22-23 * * *'], timezone: 'Europe/Berlin' },
        source: at(30),
      },
      ...base.policies,
    ],
    waves: [
      ...base.waves,
      {
        name: 'rest',
        selection: all,
        maxFailures: 10,
        after: { wave: 'canary', healthyFor: { text: '24h', ms: 86_400_000 } },
      },
    ],
  };
}

function fleetStatus(): StatusReport {
  const live = generateFleet({ sites: 10_000, pendingPerSite: 6, ignoredPerSite: 3 });
  const desired = fleetDesired();
  const plan = createPlan(desired, live, { now: NOW, lifetimeMinutes: 60 });
  const codes = [
    'UPDATE_FAILED',
    'TIMEOUT',
    'SITE_OFFLINE',
    'HTTP_500',
    'PLUGIN_MISSING',
    'DISK_FULL',
    'LOCKED',
  ];
  const history: StatusHistoryRecord[] = [];
  for (const [i, update] of live.pending.entries()) {
    if (update.siteId > 5_000) continue;
    history.push({
      time: '2026-11-22T03:00:00.000Z',
      plan_id: 'p1',
      dashboard: plan.dashboard.url,
      site_id: update.siteId,
      site_url: `https://site${update.siteId}.fleet.test/`,
      kind: update.kind,
      slug: update.slug,
      name: update.name,
      from: update.from,
      to: update.to,
      outcome: i % 3 === 0 ? 'done' : 'failed',
      code: codes[i % codes.length]!,
    });
  }
  return deriveStatus({ plan, live, desired, history });
}

describe('the dashboard issue of a 10,000-site fleet', () => {
  const report = fleetStatus();
  const body = renderStatusMarkdown(report, { configKey: 'svc-gitops.yaml' });

  it('has thousands of rows in most groups', () => {
    const rows = Object.fromEntries(report.groups.map((g) => [g.state, g.rows.length]));
    expect(rows.failed).toBeGreaterThan(1_000);
    for (const state of ['pending', 'soaking', 'window', 'held'] as const)
      expect(rows[state]).toBeGreaterThan(0);
    expect(report.groups.find((g) => g.state === 'failed')!.sites).toBe(5_000);
  });

  it('stays under GitHub’s limit, keeping every total and a “… N more” line per cut group', () => {
    expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT - 500);
    // Room is used, not wasted: the cut leaves little unused.
    expect(body.length).toBeGreaterThan(50_000);
    for (const group of report.groups.filter((g) => g.rows.length > 0)) {
      const heading = body
        .split('\n')
        .find(
          (line) => line.startsWith('#### ') && line.includes(`${group.sites.toLocaleString('en-US')} site`),
        );
      expect(heading, group.state).toBeDefined();
      const shown = tableRowsAfter(body, heading!);
      expect(shown, group.state).toBeGreaterThan(0);
      if (shown < group.rows.length) {
        const omitted = group.rows.length - shown;
        expect(body).toContain(`… ${omitted.toLocaleString('en-US')} more row${omitted === 1 ? '' : 's'} of`);
      }
    }
    // The totals table names every group with its counts.
    for (const group of report.groups)
      expect(body).toMatch(
        new RegExp(
          `\\| ${group.items.toLocaleString('en-US')} \\| ${group.sites.toLocaleString('en-US')} \\|`,
        ),
      );
  });

  it('is well-formed markdown: one table per group, no broken rows', () => {
    const structure = markdownStructure(body);
    expect(structure.problems).toEqual([]);
    const groups = structure.sections.filter((section) => /: \d[\d,]* items? on/.test(section.title));
    expect(groups.length).toBe(report.groups.filter((g) => g.rows.length > 0).length);
    for (const section of groups) expect(section.tables, section.title).toBe(1);
  });
});

/** The table rows under a group's heading. */
function tableRowsAfter(body: string, heading: string): number {
  const lines = body.split('\n');
  let i = lines.indexOf(heading) + 4;
  let rows = 0;
  while (i < lines.length && lines[i]!.startsWith('| ')) {
    rows += 1;
    i += 1;
  }
  return rows;
}
