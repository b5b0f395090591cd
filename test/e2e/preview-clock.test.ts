import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { hours, pluginUpdateFleet, sandboxEnv, T0, THREE_WAVE_ROLLOUT, tempDir } from './helpers.js';

/**
 * `plan --at TIME` previews what the gates allow at a later time, from what is known now; it
 * records nothing and cannot be saved or applied. The clock is injected: nothing sleeps.
 */
const FLEET = pluginUpdateFleet(6);
const CONFIG = THREE_WAVE_ROLLOUT;

describe('plan --at, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
  });
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });
  const stateText = () => readFileSync(join(dir, 'svc-gitops.rollout.json'), 'utf8');
  const updated = async (argv: string[], at: Date) => {
    const result = await run(['plan', '--format', 'json', ...argv], at);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as Plan).actions.filter((a) => a.op === 'update').map((a) => a.site_id);
  };

  it('shows when the next wave runs, records nothing, and is never saved or applied', async () => {
    expect((await run(['apply', '--auto-approve'], T0)).code).toBe(0);
    const before = stateText();
    expect(await updated([], hours(1))).toEqual([]);
    // Not yet a day after canary's apply: early still waits; a day after it, early runs.
    expect(await updated(['--at', '+22h'], hours(1))).toEqual([]);
    const preview = await run(['plan', '--format', 'json', '--at', hours(24).toISOString()], hours(1));
    expect(preview.stderr).toContain(
      `Preview at ${hours(24).toISOString()}: the gates are judged then, from what is known now; nothing is recorded, and apply never takes this plan.`,
    );
    expect(preview.stderr).toContain('Checked the health of 2 site(s) of wave canary: healthy.');
    expect((JSON.parse(preview.stdout) as Plan).actions.map((a) => a.site_id)).toEqual([3, 4]);
    expect(stateText()).toBe(before);
    // A preview is not a plan to apply: it cannot be saved, and apply has no such option.
    const saved = await run(['plan', '--at', '+24h', '--out', 'p.json'], hours(1));
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain('error [CONFLICTING_PARAMETERS]: --at previews a later time');
    const applied = await run(['apply', '--auto-approve', '--at', '+24h'], hours(1));
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain("unknown option '--at'");
    const past = await run(['plan', '--at', T0.toISOString()], hours(1));
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('is before now');
  });

  it('with the state lost, an unknown time counts from now, not from the previewed moment', async () => {
    expect((await run(['apply', '--auto-approve'], T0)).code).toBe(0);
    rmSync(join(dir, 'svc-gitops.rollout.json'));
    // Canary was first seen done at 25h (now): early runs no sooner than 49h, whatever --at says.
    expect(await updated(['--at', '+23h'], hours(25))).toEqual([]);
    expect(await updated(['--at', '+24h'], hours(25))).toEqual([3, 4]);
  });
});
