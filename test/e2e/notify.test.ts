import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../src/notify/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { VirtualTimers } from '../helpers/virtual-timers.js';
import { startReceiver } from '../notify/receiver.js';
import { pluginUpdateFleet, sandboxEnv, tempDir } from './helpers.js';

/**
 * Notifications end to end: the CLI's apply halts a canary (as in rollout-halt.test.ts) and the
 * webhook on loopback receives the documented body; a receiver that fails is retried in virtual
 * time and never changes the run's exit code; the webhook URL (its token in the path) never
 * appears in the output.
 */
const CONFIG = `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
rollout:
  health: {max_unhealthy: 0}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all]}
`;
const T0 = new Date('2026-11-23T10:00:00Z');
const TOKEN = 'T0K3N-b7Xq2LmZp9Rw4Vs8';

describe('webhook notifications, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(pluginUpdateFleet(4)) }));
  let dir: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  beforeEach(async () => {
    dir = tempDir();
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
    await sandboxControl(sandbox)('PUT', 'health-faults', [
      { site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7' },
    ]);
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  async function halt(answer: (n: number) => number, extra: Record<string, string> = {}) {
    receiver = await startReceiver(answer);
    const timers = new VirtualTimers();
    const url = `${receiver.url}/hooks/${TOKEN}`;
    const env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0', SVC_WEBHOOK_URL: url, ...extra };
    const run = await cli(['apply', '--auto-approve'], { env, cwd: dir, now: () => T0, timers });
    // The URL and its token never reach the output, in any form.
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('/hooks/');
    }
    return { run, timers, deliveries: receiver.deliveries };
  }

  it('a halted canary posts the documented JSON: the halt and the quarantine', async () => {
    const { run, deliveries } = await halt(() => 200);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Apply stopped (wave canary left unhealthy sites)');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.path).toBe(`/hooks/${TOKEN}`);
    expect(deliveries[0]!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(deliveries[0]!.body) as Notification;
    expect(body).toMatchObject({
      source: 'svc-gitops',
      schema_version: 1,
      at: T0.toISOString(),
      dashboard: sandbox.url,
      summary:
        'Rollout halted at wave canary: 1 site unhealthy (at most 0 allowed)\n' +
        'Quarantined plugin akismet/akismet.php 5.3.7: it left 1 site unhealthy; repair by hand',
      events: [
        {
          event: 'rollout.halted',
          wave: 'canary',
          max_unhealthy: 0,
          unhealthy: [{ site_id: 2, site_url: 'https://site-2.demo.test/', problem: 'offline (HTTP 500)' }],
        },
        {
          event: 'quarantine.recorded',
          kind: 'plugin',
          slug: 'akismet/akismet.php',
          version: '5.3.7',
          wave: 'canary',
          since: T0.toISOString(),
          sites: [{ site_id: 2, site_url: 'https://site-2.demo.test/', problem: 'offline (HTTP 500)' }],
        },
      ],
    });
    expect(typeof body.plan_id).toBe('string');
  });

  it('SVC_WEBHOOK_FORMAT=slack posts a Slack incoming-webhook body', async () => {
    const { deliveries } = await halt(() => 200, { SVC_WEBHOOK_FORMAT: 'slack' });
    expect(deliveries).toHaveLength(1);
    const body = JSON.parse(deliveries[0]!.body) as { text: string; blocks: Array<Record<string, unknown>> };
    expect(Object.keys(body).sort()).toEqual(['blocks', 'text']);
    expect(body.text).toBe(
      `svc-gitops on ${sandbox.url}: Rollout halted at wave canary: 1 site unhealthy (at most 0 allowed); ` +
        'Quarantined plugin akismet/akismet.php 5.3.7: it left 1 site unhealthy; repair by hand',
    );
    expect(body.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: `svc-gitops on ${sandbox.url}` },
    });
    expect(body.blocks.slice(1).map((block) => block.type)).toEqual(['section', 'section']);
  });

  it('a receiver answering 500 twice, then 200, gets 3 deliveries after backoff; the exit code stays', async () => {
    const { run, timers, deliveries } = await halt((n) => (n <= 2 ? 500 : 200));
    expect(run.code).toBe(1);
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries.map((delivery) => delivery.body)).size).toBe(1);
    // The waits before the 2nd and 3rd attempt, in virtual time: 1 s, then 4 s.
    expect(timers.now()).toBeGreaterThanOrEqual(5_000);
    expect(run.stderr).not.toContain('not delivered');
  });

  it('a receiver that always fails: a warning naming the host only, the run unaffected', async () => {
    const { run, deliveries } = await halt(() => 503);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Apply stopped (wave canary left unhealthy sites)');
    expect(deliveries).toHaveLength(4);
    const host = new URL(receiver!.url).host;
    expect(run.stderr).toContain(
      `svc-gitops: warning: notification to ${host} not delivered (HTTP 503); the run goes on`,
    );
  });
});
