import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../src/notify/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { startReceiver } from '../notify/receiver.js';
import { hours, sandboxEnv, T0, tempDir } from './helpers.js';
import { API_KEY, config, FLEET, putFeed } from './security-fixture.js';

const CF7 = 'contact-form-7/wp-contact-form-7.php';
/** Seven days and eleven hours after T0: the soak has passed and the Berlin window (22-23) is open. */
const OPEN = hours(7 * 24 + 11);

/**
 * A vulnerable, no-fix site is notified once: applies remember the (site, advisory) pairs a
 * delivered notification named in the rollout state, and notify only pairs not remembered.
 */
describe('vulnerable, no fix is notified once per site', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeEach(async () => {
    dir = tempDir();
    receiver = await startReceiver();
    env = {
      ...sandboxEnv(sandbox, dir),
      SVC_RATE_LIMIT: '0',
      SVC_FEED_API_KEY: API_KEY,
      SVC_WEBHOOK_URL: `${receiver.url}/hook`,
    };
    await putFeed(sandbox.url);
    writeFileSync(join(dir, 'svc-gitops.yaml'), config(`${sandbox.url}/__sandbox/vulnerability-feed`));
  });
  afterEach(async () => receiver.close());
  const apply = async (at: Date) => {
    const applied = await cli(['apply', '--auto-approve'], { env, cwd: dir, now: () => at });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    return applied;
  };
  const vulnerableEvents = () =>
    receiver.deliveries.map((delivery) =>
      (JSON.parse(delivery.body) as Notification).events
        .filter((event) => event.event === 'vulnerable.no_fix')
        .map((event) => ('site_ids' in event ? [event.slug, event.version, event.site_ids] : [])),
    );

  it('two applies send one notification; a newly vulnerable site is notified alone', async () => {
    await apply(T0);
    expect(vulnerableEvents()).toEqual([[[CF7, '5.0', [5, 6]]]]);
    const state = readFileSync(join(dir, 'svc-gitops.rollout.json'), 'utf8');
    expect(state).toContain(
      `{"notified":"plugin ${CF7} 5.0 a1b2c3d4-0000-4000-8000-000000000002","at":"${T0.toISOString()}","sites":[5,6]}`,
    );

    // The routine classic-editor updates run now; the same vulnerable sites are not news.
    const second = await apply(OPEN);
    expect(second.stdout).toContain('Apply complete');
    expect(vulnerableEvents()).toEqual([[[CF7, '5.0', [5, 6]]]]);

    // Site 1 gets contact-form-7 5.0 (and a security fix to apply, so the run has work).
    const control = sandboxControl(sandbox);
    await control('POST', 'pending', { site: 1, kind: 'plugin', slug: CF7, from: '5.0', to: '5.1' });
    await control('POST', 'pending', {
      site: 1,
      kind: 'plugin',
      slug: 'akismet/akismet.php',
      from: '5.3.6',
      to: '5.3.7',
    });
    await apply(hours(7 * 24 + 12));
    expect(vulnerableEvents()).toEqual([[[CF7, '5.0', [5, 6]]], [[CF7, '5.0', [1]]]]);
  });

  it('a lost memory is the safe side: the sites are notified again', async () => {
    await apply(T0);
    const path = join(dir, 'svc-gitops.rollout.json');
    const kept = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('{"notified"'))
      .join('\n');
    writeFileSync(path, kept);
    await apply(OPEN);
    expect(vulnerableEvents()).toEqual([[[CF7, '5.0', [5, 6]]], [[CF7, '5.0', [5, 6]]]]);
  });
});
