import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { StatusReport, StatusState } from '../../src/types.js';
import { hours, sandboxEnv, T0, tempDir } from '../e2e/helpers.js';
import { cli } from '../helpers/cli.js';
import { expectFitsSchema } from '../helpers/json-schemas.js';
import { markdownStructure } from '../helpers/markdown-structure.js';
import { sandboxPer } from '../helpers/sandbox.js';

/**
 * `svc-gitops status` end to end: the real CLI against the sandbox with an injected clock. Six
 * sites with three plugin updates each; the desired state gives each update another fate: one
 * runs now in the canary wave and waits behind it elsewhere, one soaks, one waits for a window,
 * one is held on two sites. The history file holds an earlier apply with a failure.
 */
const FLEET = `sites:\n${Array.from(
  { length: 6 },
  (_, i) => `  - id: ${i + 1}
    url: https://site-${i + 1}.demo.test/
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
      hello-dolly/hello.php: 1.6 -> 1.7
      classic-editor/classic-editor.php: 1.6.3 -> 1.6.4`,
).join('\n')}\n`;

const CONFIG = `version: 1
updates:
  - {name: now, sites: [all], kinds: [plugins], include: [akismet/akismet.php], max: minor}
  - name: soaked
    sites: [all]
    kinds: [plugins]
    include: [hello-dolly/hello.php]
    max: minor
    min_release_age: 3d
  - name: nightly
    sites: [all]
    kinds: [plugins]
    include: [classic-editor/classic-editor.php]
    max: minor
    window: {schedule: '* 22-23 * * *', timezone: Europe/Berlin}
holds:
  - {sites: [5, 6], plugin: akismet/akismet.php, reason: shop freeze}
rollout:
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all], after: {wave: canary, healthy_for: 24h}}
`;

describe('svc-gitops status against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
  });
  const run = (argv: string[], at = hours(1)) => cli(['status', ...argv], { env, cwd: dir, now: () => at });
  const group = (report: StatusReport, state: StatusState) => report.groups.find((g) => g.state === state)!;

  it('groups every item by its state, with until when, why, and site counts', async () => {
    // A first plan at T0 records when the versions were first seen: they soak from then.
    expect((await cli(['plan'], { env, cwd: dir, now: () => T0 })).code).toBe(0);
    const result = await run(['--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const report = expectFitsSchema('command-report', result.stdout) as unknown as StatusReport;
    expect(report.groups.map((g) => g.state)).toEqual([
      'pending',
      'soaking',
      'window',
      'held',
      'quarantined',
      'failed',
      'vulnerable',
    ]);

    const pending = group(report, 'pending');
    expect(pending.rows).toEqual([
      expect.objectContaining({
        slug: 'akismet/akismet.php',
        versions: '5.3.6 → 5.3.7',
        detail: 'update, wave canary',
        sites: 2,
        first_sites: ['https://site-1.demo.test/', 'https://site-2.demo.test/'],
      }),
    ]);

    const soaking = group(report, 'soaking');
    expect(soaking.sites).toBe(6);
    expect(soaking.rows[0]).toMatchObject({
      slug: 'hello-dolly/hello.php',
      versions: '1.6 → 1.7',
      until: hours(72).toISOString(),
      sites: 6,
    });
    expect(soaking.rows[0]!.when).toBe('2026-11-26 10:00 UTC');

    const window = group(report, 'window');
    expect(window.rows[0]).toMatchObject({
      slug: 'classic-editor/classic-editor.php',
      until: '2026-11-23T21:00:00.000Z',
      when: '2026-11-23 22:00 Europe/Berlin (2026-11-23T21:00:00.000Z)',
      sites: 6,
    });

    // Held: by the hold rule (file:line and reason) on 5-6, by the wave gate on 3-4.
    const held = group(report, 'held');
    expect(held.sites).toBe(4);
    const byRule = held.rows.find((row) => row.detail.includes('shop freeze'));
    expect(byRule).toMatchObject({ slug: 'akismet/akismet.php', sites: 2 });
    expect(byRule!.detail).toMatch(/svc-gitops\.yaml:\d+/);
    const byWave = held.rows.find((row) => row.detail.includes('wave "rest"'));
    expect(byWave).toMatchObject({ slug: 'akismet/akismet.php', sites: 2 });
    expect(byWave!.first_sites).toEqual(['https://site-3.demo.test/', 'https://site-4.demo.test/']);

    for (const state of ['quarantined', 'failed', 'vulnerable'] as const)
      expect(group(report, state)).toMatchObject({ items: 0, sites: 0, rows: [] });
  });

  it('shows the last apply’s failures from the history file, and prints text and markdown', async () => {
    // The history records the dashboard as plans do: read it from a first status.
    const first = JSON.parse((await run(['--format', 'json'])).stdout) as StatusReport;
    const state = join(dir, '.svc-gitops');
    mkdirSync(state, { recursive: true });
    const record = (time: string, site: number, outcome: string, code?: string) =>
      JSON.stringify({
        time,
        plan_id: `p-${time}`,
        dashboard: first.dashboard,
        site_id: site,
        site_url: `https://site-${site}.demo.test/`,
        op: 'update',
        kind: 'plugin',
        slug: 'akismet/akismet.php',
        name: 'Akismet',
        from: '5.3.5',
        to: '5.3.6',
        outcome,
        ...(code ? { code } : {}),
      });
    const older = '2026-11-20T10:00:00.000Z';
    const last = '2026-11-22T10:00:00.000Z';
    writeFileSync(
      join(state, 'history.jsonl'),
      [
        record(older, 4, 'failed', 'OLD'),
        record(last, 1, 'done'),
        record(last, 2, 'failed', 'UPDATE_FAILED'),
        record(last, 3, 'failed', 'UPDATE_FAILED'),
      ].join('\n'),
    );
    const json = await run(['--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as StatusReport;
    expect(report.last_apply).toEqual({ time: last, plan_id: `p-${last}`, records: 3, failed: 2 });
    expect(group(report, 'failed').rows).toEqual([
      expect.objectContaining({
        slug: 'akismet/akismet.php',
        versions: '5.3.5 → 5.3.6',
        detail: `failed at ${last}: UPDATE_FAILED`,
        sites: 2,
      }),
    ]);

    const text = await run([]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Pending (will run now): 1 item on 2 sites');
    expect(text.stdout).toContain('Failed in the last apply: 1 item on 2 sites');
    expect(text.stdout).toContain('Quarantined: none');

    const markdown = await run(['--format', 'markdown']);
    const structure = markdownStructure(markdown.stdout);
    expect(structure.problems).toEqual([]);
    // The totals table, then one table per group with rows.
    expect(structure.sections.map((s) => [s.title, s.tables])).toEqual([
      ['(top)', 0],
      [expect.stringContaining('svc-gitops status of'), 1],
      ['Pending (will run now): 1 item on 2 sites', 1],
      ['Soaking: 1 item on 6 sites', 1],
      ['Waiting for a window: 1 item on 6 sites', 1],
      ['Held: 1 item on 4 sites', 1],
      ['Failed in the last apply: 1 item on 2 sites', 1],
    ]);
  });
});
