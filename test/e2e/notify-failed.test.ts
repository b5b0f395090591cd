import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../src/notify/index.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { startReceiver } from '../notify/receiver.js';
import { REPO, startDemo, tempDir } from './helpers.js';

/** A failed apply notifies: the demo's site 23 fails its wordfence update (apply-failed-next.test.ts). */
describe('a failed apply notifies the webhook', () => {
  const sandbox = sandboxPer('test', () => startDemo('compat-6.1'));
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
  });

  it('posts apply.failed with the failed action; the exit code is the failed apply one', async () => {
    receiver = await startReceiver();
    const cwd = tempDir('svc-gitops-notify-failed-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    const env = {
      ...fastClientEnv(sandbox),
      HOME: tempDir(),
      SVC_SAFE_MODE: 'false',
      SVC_WEBHOOK_URL: `${receiver.url}/hook/s3cr3t-Path-Tok3n-9qZx`,
    };
    const run = await cli(['apply', '--auto-approve', '--target', '23'], { env, cwd });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout + run.stderr).not.toContain('s3cr3t-Path-Tok3n-9qZx');
    expect(receiver.deliveries).toHaveLength(1);
    const body = JSON.parse(receiver.deliveries[0]!.body) as Notification;
    expect(body.summary).toBe('Apply failed: 1 action failed');
    expect(body.events).toEqual([
      {
        event: 'apply.failed',
        failed: 1,
        stopped: null,
        failures: [
          {
            site_id: 23,
            kind: 'plugin',
            slug: 'wordfence/wordfence.php',
            op: 'update',
            code: 'svc_update_failed',
          },
        ],
      },
    ]);
  });
});
