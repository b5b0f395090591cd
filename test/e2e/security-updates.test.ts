import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../src/notify/index.js';
import { driftIssueBody, renderPlanMarkdown } from '../../src/render/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { startReceiver } from '../notify/receiver.js';
import { planSchemaErrors, sandboxEnv, T0, tempDir } from './helpers.js';
import { API_KEY, config, FLEET, putFeed, RECORDS } from './security-fixture.js';

describe('security updates against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0', SVC_FEED_API_KEY: API_KEY };
    await putFeed(sandbox.url);
    writeFileSync(join(dir, 'svc-gitops.yaml'), config(`${sandbox.url}/__sandbox/vulnerability-feed`));
  });
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });
  const updates = (plan: Plan) =>
    plan.actions.filter((a) => a.op === 'update').map((a) => `${a.site_id} ${a.slug} ${a.wave}`);

  it('plans and applies the fix despite a 7-day soak and a closed window, wave by wave with health checks', async () => {
    const planned = await run(['plan', '--format', 'json'], T0);
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(planSchemaErrors(plan)).toBe('');
    // Only the security fix: the routine classic-editor update waits for the window.
    expect(updates(plan)).toEqual([
      '1 akismet/akismet.php canary',
      '2 akismet/akismet.php canary',
      '3 akismet/akismet.php everyone',
      '4 akismet/akismet.php everyone',
    ]);
    expect(
      plan.notes.some((n) => n.kind === 'waiting' && n.item?.slug === 'classic-editor/classic-editor.php'),
    ).toBe(true);
    expect(plan.security?.updates).toEqual([
      {
        kind: 'plugin',
        slug: 'akismet/akismet.php',
        name: 'Akismet Anti-spam: Spam Protection',
        from: '5.3.6',
        to: '5.3.7',
        advisories: ['a1b2c3d4-0000-4000-8000-000000000001'],
        site_ids: [1, 2, 3, 4],
      },
    ]);
    expect(plan.security?.vulnerable.map((v) => [v.slug, v.from, v.fix, v.site_ids])).toEqual([
      ['contact-form-7/wp-contact-form-7.php', '5.0', 'no-fix', [5, 6]],
    ]);
    // The plan records no window or soak gate for the security updates: apply will not refuse them.
    expect(plan.gates).toBeUndefined();

    // Text leads with the security updates, CVE, CVSS and link, then the vulnerable sites.
    const text = await run(['plan'], T0);
    const security = text.stdout.indexOf('Security updates (1):');
    expect(security).toBeGreaterThan(0);
    expect(security).toBeLessThan(text.stdout.indexOf('Changes ('));
    expect(text.stdout).toContain(
      '+ plugin akismet/akismet.php 5.3.6 → 5.3.7 on sites 1, 2, 3, 4: CVE-2026-11111 CVSS 9.8 https://www.wordfence.com/threat-intel/vulnerabilities/id/a1b2c3d4',
    );
    expect(text.stdout).toContain('Vulnerable, no fix (1):');
    expect(text.stdout).toContain(
      'vulnerable: plugin contact-form-7/wp-contact-form-7.php is on a vulnerable version that no pending update fixes (see the security section)',
    );
    expect(text.stdout + text.stderr).not.toContain(API_KEY);

    const applied = await run(['apply', '--auto-approve'], T0);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('wave canary: 2 updated site(s) checked, 0 unhealthy');
    expect(applied.stdout).toContain('wave everyone: 2 updated site(s) checked, 0 unhealthy');
    expect(applied.stdout).toContain('Apply complete: 4 done');
    expect(applied.stdout + applied.stderr).not.toContain(API_KEY);

    const after = JSON.parse((await run(['plan', '--format', 'json'], T0)).stdout) as Plan;
    expect(updates(after)).toEqual([]);
    expect(after.security?.vulnerable.map((v) => v.site_ids)).toEqual([[5, 6]]);
  });

  it('an apply whose plan has vulnerable, no-fix sites notifies vulnerable.no_fix', async () => {
    const receiver = await startReceiver();
    try {
      const applied = await cli(['apply', '--auto-approve'], {
        env: { ...env, SVC_WEBHOOK_URL: `${receiver.url}/hook/${API_KEY}-path` },
        cwd: dir,
        now: () => T0,
      });
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      expect(applied.stdout + applied.stderr).not.toContain(API_KEY);
      expect(receiver.deliveries).toHaveLength(1);
      const body = JSON.parse(receiver.deliveries[0]!.body) as Notification;
      expect(body.events).toMatchObject([
        {
          event: 'vulnerable.no_fix',
          kind: 'plugin',
          slug: 'contact-form-7/wp-contact-form-7.php',
          version: '5.0',
          site_ids: [5, 6],
        },
      ]);
      expect(body.summary).toMatch(
        /^Vulnerable, no fix: plugin contact-form-7\/wp-contact-form-7.php 5.0 on 2 sites$/,
      );
    } finally {
      await receiver.close();
    }
  });

  it('--fail-on-vulnerable exits 4 from plan and drift while the plan lists vulnerable, no-fix sites', async () => {
    const plain = await run(['plan'], T0);
    expect(plain.code, plain.stderr).toBe(0);
    const failing = await run(['plan', '--format', 'json', '--fail-on-vulnerable'], T0);
    expect(failing.code, failing.stderr).toBe(4);
    // stdout stays the plan document; the verdict goes to stderr with the sites it names.
    expect((JSON.parse(failing.stdout) as Plan).security?.vulnerable[0]?.site_ids).toEqual([5, 6]);
    expect(failing.stderr).toContain('--fail-on-vulnerable: 2 sites vulnerable with no fix (sites 5, 6)');
    // With --detailed-exitcode too, the vulnerable sites outrank the changes (2).
    expect((await run(['plan', '--detailed-exitcode', '--fail-on-vulnerable'], T0)).code).toBe(4);
    expect((await run(['plan', '--detailed-exitcode'], T0)).code).toBe(2);
    // drift: 2 (drifted) without the option, 4 with it.
    expect((await run(['drift'], T0)).code).toBe(2);
    const drift = await run(['drift', '--fail-on-vulnerable'], T0);
    expect(drift.code, drift.stderr).toBe(4);
    expect(drift.stdout).toContain('Vulnerable, no fix (1):');
  });

  it('--fail-on-vulnerable exits 0 when the plan lists no vulnerable, no-fix site', async () => {
    const onlyFixed = Object.fromEntries(Object.entries(RECORDS).slice(0, 1));
    await putFeed(sandbox.url, onlyFixed);
    const planned = await run(['plan', '--format', 'json', '--fail-on-vulnerable'], T0);
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(plan.security?.updates.map((u) => u.site_ids)).toEqual([[1, 2, 3, 4]]);
    expect(plan.security?.vulnerable).toEqual([]);
    expect(planned.stderr).not.toContain('--fail-on-vulnerable');
  });

  it('a security update still stops at an unhealthy canary', async () => {
    await sandboxControl(sandbox)('PUT', 'health-faults', [
      { site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7' },
    ]);
    const applied = await run(['apply', '--auto-approve'], T0);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain('Apply stopped (wave canary left unhealthy sites)');
    const state = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as {
      sites: Array<{ id: number; plugins: Record<string, string> }>;
    };
    const akismet = (id: number) => JSON.stringify(state.sites.find((s) => s.id === id)?.plugins);
    expect(akismet(3)).toContain('5.3.6');
  });

  it('a bad key is refused without showing it; the drift issue lists the vulnerable sites', async () => {
    const wrongKey = await cli(['plan'], {
      env: { ...env, SVC_FEED_API_KEY: 'wrong-key-Hq7Tx2' },
      cwd: dir,
      now: () => T0,
    });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('refused the API key (HTTP 401)');
    expect(wrongKey.stdout + wrongKey.stderr).not.toContain('wrong-key-Hq7Tx2');

    const plan = JSON.parse((await run(['plan', '--format', 'json'], T0)).stdout) as Plan;
    const body = driftIssueBody({
      plan,
      planMarkdown: renderPlanMarkdown(plan),
      marker: '<!-- svc-gitops drift -->',
      configKey: 'svc-gitops.yaml',
      now: T0,
    });
    expect(body).toContain('### Vulnerable, no fix (1)');
    expect(body).toContain(
      '[CVE-2026-22222](https://www.wordfence.com/threat-intel/vulnerabilities/id/a1b2c3d4-0000-4000-8000-000000000002) (CVSS 7.5)',
    );
    expect(body.indexOf('### Security updates (1)')).toBeGreaterThan(0);
    expect(body.indexOf('### Security updates (1)')).toBeLessThan(body.indexOf('<details>'));
  });
});
