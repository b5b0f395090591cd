import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { hours, planSchemaErrors, pluginUpdateFleet, sandboxEnv, T0, tempDir } from './helpers.js';

/**
 * A version WordPress rolled back on a site (`rollback_items` of get-site-updates-v1) is
 * known-bad fleet-wide: the wave halts, the version is quarantined, and the next plan holds it
 * on every site, though the site itself stayed healthy.
 */
const CONFIG = `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
rollout:
  health: {max_unhealthy: 1}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all]}
`;
const KEY = 'plugin akismet/akismet.php 5.3.7';

describe('an update WordPress rolled back is quarantined, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(pluginUpdateFleet(4)) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
    await sandboxControl(sandbox)('PUT', 'health-faults', [
      { site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7', rollback: true },
    ]);
  });
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });
  const state = () => readFileSync(join(dir, 'svc-gitops.rollout.json'), 'utf8');

  it('halts the canary on the rollback, records the quarantine, and the next plan holds the version', async () => {
    const halting = await run(['apply', '--auto-approve'], T0);
    expect(halting.stdout).toContain('Apply stopped (wave canary left unhealthy sites)');
    const line = state()
      .split('\n')
      .find((text) => text.startsWith('{"quarantine"'));
    expect(JSON.parse(line ?? '{}')).toEqual({
      quarantine: KEY,
      at: T0.toISOString(),
      wave: 'canary',
      sites: [{ site_id: 2, site_url: 'https://site-2.demo.test/', problem: 'rolled back by WordPress' }],
    });

    const json = await run(['plan', '--format', 'json'], hours(1));
    const plan = JSON.parse(json.stdout) as Plan;
    expect(planSchemaErrors(plan), json.stdout.slice(0, 600) + json.stderr).toBe('');
    expect(plan.actions.filter((action) => action.slug === 'akismet/akismet.php')).toEqual([]);
    expect(plan.quarantines?.map((entry) => [entry.slug, entry.version, entry.held_sites])).toEqual([
      ['akismet/akismet.php', '5.3.7', 3],
    ]);
    const held = plan.notes.find((note) => note.kind === 'held');
    expect(held?.site_ids).toEqual([2, 3, 4]);
    expect(held?.message).toContain('plugin akismet/akismet.php update to 5.3.7 is quarantined');
  });
});
