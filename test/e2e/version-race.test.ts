import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { ApplyResult, Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { hours, pluginUpdateFleet, sandboxEnv, T0, tempDir } from './helpers.js';

/**
 * The version race: the dashboard installs the latest release, so a wave whose item got a newer
 * release than the plan showed is not sent. The sandbox publishes akismet 5.3.8 on sites 3 and 4
 * once the canary's two updates ran, in the middle of the apply.
 */
const CONFIG = `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor, min_release_age: 1d}
rollout:
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all]}
`;
const AKISMET = 'akismet/akismet.php';

describe('a release published in the middle of an apply, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(pluginUpdateFleet(4)) }));
  let dir: string;
  let env: Record<string, string>;
  const control = async (method: string, path: string, body: unknown) => {
    const reply = await fetch(`${sandbox.url}/__sandbox/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(reply.ok, await reply.clone().text()).toBe(true);
    return reply.json() as Promise<Record<string, unknown>>;
  };
  beforeEach(async () => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
    // A second plugin in the later wave: the rest of the wave still goes.
    await control('POST', 'pending', {
      site: 3,
      kind: 'plugin',
      slug: 'hello-dolly/hello.php',
      from: '1.6',
      to: '1.7',
    });
  });
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });

  it('sends no update of the item after the release, says why, and plans the new version with its own soak', async () => {
    // Both versions first seen two days ago: their soak is over at T0.
    expect((await run(['plan'], hours(-48))).code).toBe(0);
    const release = (site: number) => ({
      after_updates: 2,
      site,
      kind: 'plugin',
      slug: AKISMET,
      to: '5.3.8',
    });
    await control('PUT', 'scheduled-releases', [release(3), release(4)]);

    const applied = await run(['apply', '--auto-approve', '--format', 'json'], T0);
    expect(applied.code, applied.stderr).toBe(0);
    const result = JSON.parse(applied.stdout) as ApplyResult;
    const outcomes = result.outcomes.map((o) => [o.action.site_id, o.action.slug, o.status, o.code]);
    expect(outcomes).toEqual([
      [1, AKISMET, 'done', undefined],
      [2, AKISMET, 'done', undefined],
      [3, AKISMET, 'skipped', 'NEWER_RELEASE'],
      [3, 'hello-dolly/hello.php', 'done', undefined],
      [4, AKISMET, 'skipped', 'NEWER_RELEASE'],
    ]);
    expect(result.outcomes[2]?.message).toBe(
      'not sent: plugin akismet/akismet.php has a newer release (5.3.8) than the plan showed (5.3.7); the dashboard would install 5.3.8, so it is planned again and its soak starts',
    );
    // The release was published after the canary's updates, and the dashboard ran no akismet update since.
    const rules = (await (await fetch(`${sandbox.url}/__sandbox/scheduled-releases`)).json()) as Array<{
      published_at_update?: number;
    }>;
    expect(rules.map((rule) => rule.published_at_update)).toEqual([2, 2]);
    const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as {
      updates_run: Array<{ site_id: number; slug: string; count: number }>;
    };
    expect(stats.updates_run.filter((u) => u.slug === AKISMET).map((u) => u.site_id)).toEqual([1, 2]);

    const plan = JSON.parse((await run(['plan', '--format', 'json'], hours(1))).stdout) as Plan;
    expect(plan.actions).toEqual([]);
    const waiting = plan.notes.find((note) => note.kind === 'waiting');
    expect(waiting?.site_ids).toEqual([3, 4]);
    expect(waiting?.message).toContain(`versions first seen now (${hours(1).toISOString()})`);
  });
});
