import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { hours, planSchemaErrors, pluginUpdateFleet, sandboxEnv, T0, tempDir } from './helpers.js';

/**
 * A version that breaks the canary is quarantined: recorded in the rollout state, held on every
 * site not yet updated (the next plan says so and why), the broken sites listed for repair by
 * hand; a reviewed hold takes it over, and removing that hold releases it.
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
const HOLD = `holds:
  - {plugin: akismet/akismet.php, sites: [all], versions: ['5.3.7']}
`;
const KEY = 'plugin akismet/akismet.php 5.3.7';

describe('a breaking update is quarantined, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(pluginUpdateFleet(4)) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
    await sandboxControl(sandbox)('PUT', 'health-faults', [
      { site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7' },
    ]);
  });
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });
  const state = () => readFileSync(join(dir, 'svc-gitops.rollout.json'), 'utf8');
  const planAt = async (at: Date): Promise<Plan> => {
    const json = await run(['plan', '--format', 'json'], at);
    const plan = JSON.parse(json.stdout) as Plan;
    expect(planSchemaErrors(plan), json.stdout.slice(0, 600) + json.stderr).toBe('');
    return plan;
  };

  it('halts the canary, records the quarantine, and the next plan holds the version on every site', async () => {
    const halting = await run(['apply', '--auto-approve'], T0);
    expect(halting.code).toBe(1);
    expect(halting.stdout).toContain('Apply stopped (wave canary left unhealthy sites)');
    const line = state()
      .split('\n')
      .find((text) => text.startsWith('{"quarantine"'));
    expect(JSON.parse(line ?? '{}')).toEqual({
      quarantine: KEY,
      at: T0.toISOString(),
      wave: 'canary',
      sites: [{ site_id: 2, site_url: 'https://site-2.demo.test/', problem: 'offline (HTTP 500)' }],
    });

    // Site 2 repaired by hand: the halt is gone, the quarantine is not.
    await fetch(`${sandbox.url}/__sandbox/health-faults`, { method: 'PUT', body: '[]' });
    const plan = await planAt(hours(1));
    expect(plan.rollout_halt).toBeUndefined();
    expect(plan.actions.filter((action) => action.slug === 'akismet/akismet.php')).toEqual([]);
    expect(plan.quarantines).toEqual([
      {
        kind: 'plugin',
        slug: 'akismet/akismet.php',
        version: '5.3.7',
        since: T0.toISOString(),
        wave: 'canary',
        repair: [{ site_id: 2, site_url: 'https://site-2.demo.test/', problem: 'offline (HTTP 500)' }],
        held_sites: 2,
        in_desired_state: false,
      },
    ]);
    const held = plan.notes.find((note) => note.kind === 'held');
    expect(held?.site_ids).toEqual([3, 4]);
    expect(held?.message).toContain('plugin akismet/akismet.php update to 5.3.7 is quarantined');
    const text = await run(['plan'], hours(1));
    expect(text.stdout).toContain('Quarantined versions (1):');
    expect(text.stdout).toContain('Repair by hand: site 2 https://site-2.demo.test/ (offline (HTTP 500))');
    const markdown = await run(['plan', '--format', 'markdown'], hours(1));
    expect(markdown.stdout).toContain('### ⛔ Quarantined versions (1)');
    const apply = await run(['apply', '--auto-approve'], hours(2));
    expect(apply.stdout).not.toMatch(/akismet.*done/);

    // A newer release is not quarantined: it is planned as usual.
    await fetch(`${sandbox.url}/__sandbox/pending`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ site: 3, kind: 'plugin', slug: 'akismet/akismet.php', to: '5.3.8' }),
    });
    const newer = await planAt(hours(3));
    expect(newer.actions.map((action) => [action.site_id, action.to])).toEqual([[3, '5.3.8']]);
  });

  it('a reviewed hold takes the quarantine over, and removing it releases the version', async () => {
    await run(['apply', '--auto-approve'], T0);
    await fetch(`${sandbox.url}/__sandbox/health-faults`, { method: 'PUT', body: '[]' });
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG + HOLD);
    const adopted = await planAt(hours(1));
    expect(adopted.quarantines?.[0]).toMatchObject({ in_desired_state: true, held_sites: 2 });
    expect(adopted.notes.find((note) => note.kind === 'held')?.message).toContain(
      'plugin akismet/akismet.php update to 5.3.7 is held (svc-gitops.yaml:',
    );
    expect(state()).toContain(`"adopted_at":"${hours(1).toISOString()}"`);

    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
    const released = await planAt(hours(2));
    expect(released.quarantines).toBeUndefined();
    expect(released.actions.filter((action) => action.slug === 'akismet/akismet.php')).toHaveLength(2);
    expect(state()).not.toContain('"quarantine"');
  });
});
