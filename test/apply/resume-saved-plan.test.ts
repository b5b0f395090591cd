import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KILL_CONFIG } from '../../scripts/soak/kill-harness.js';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * Issue 21, finding 4: `apply PLANFILE` killed mid-run, where no config is at hand (CI holding
 * only the plan file), is finished by `apply --resume` without a config, and with one; every
 * hint on the way names a command that works.
 */
const REPO = resolve(import.meta.dirname, '../..');
const MAIN = join(REPO, 'src/cli/main.ts');
const TSX = import.meta.resolve('tsx');

let sandbox: RunningSandbox | undefined;
afterEach(() => sandbox?.close());

async function stats() {
  return (await (await fetch(`${sandbox?.url}/__sandbox/stats`)).json()) as {
    abilities: Record<string, number>;
    updates_run: Array<{ count: number }>;
  };
}

async function writes(): Promise<number> {
  const { abilities } = await stats();
  return Object.entries(abilities)
    .filter(([name]) => /ignore-site-|set-ignored|run-updates|update-site/.test(name))
    .reduce((n, [, count]) => n + count, 0);
}

/** Runs `apply plan.json` as a child and kills it (SIGKILL) once it has sent a few writes. */
async function killedApply(cwd: string, env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['--import', TSX, MAIN, 'apply', 'plan.json'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  for (let i = 0; i < 400 && (await writes()) < 3; i++) await new Promise((r) => setTimeout(r, 25));
  child.kill('SIGKILL');
  await exited;
  expect(await writes(), stderr).toBeGreaterThanOrEqual(3);
}

describe('resuming a killed `apply PLANFILE`', () => {
  for (const withConfig of [false, true]) {
    it(`finishes it with \`apply --resume\`${withConfig ? ' -c CONFIG' : ' and no config at hand'}`, async () => {
      sandbox = await startSandbox({
        fleet: generateFleet({ sites: 8, pendingPerSite: 2, ignoredPerSite: 0, seed: 4 }),
        profile: 'spec',
        faults: [{ kind: 'latency', method: 'POST', delayMs: 100 }],
      });
      const cwd = tempDirForFile('svc-resume-plan-');
      const home = join(cwd, 'home');
      mkdirSync(home);
      mkdirSync(join(cwd, 'desired'));
      writeFileSync(join(cwd, 'desired', 'svc-gitops.yaml'), KILL_CONFIG);
      const env = {
        ...sandbox.env(),
        SVC_RATE_LIMIT: '0',
        SVC_CONCURRENCY: '1',
        HOME: home,
        XDG_STATE_HOME: '',
        SVC_GITOPS_LOCK_DIR: '',
        NO_COLOR: '1',
      };
      const planned = await cli(['plan', '-c', 'desired/svc-gitops.yaml', '--out', 'plan.json'], {
        env,
        cwd,
      });
      expect(planned.code, planned.stderr).toBe(0);
      if (!withConfig) rmSync(join(cwd, 'desired'), { recursive: true });
      await killedApply(cwd, env);

      // The plan file itself is used up; its hint names the resume that works.
      const again = await cli(['apply', 'plan.json'], { env, cwd });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('svc-gitops apply --resume');

      const argv = withConfig
        ? ['apply', '--resume', '-c', 'desired/svc-gitops.yaml']
        : ['apply', '--resume'];
      const resumed = await cli(argv, { env, cwd });
      expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
      expect(Math.max(0, ...(await stats()).updates_run.map((u) => u.count))).toBe(1);

      // Nothing is left to do: a fresh plan of the same desired state is empty.
      mkdirSync(join(cwd, 'check'));
      writeFileSync(join(cwd, 'check', 'svc-gitops.yaml'), KILL_CONFIG);
      const left = await cli(['plan', '-c', 'check/svc-gitops.yaml', '--detailed-exitcode'], { env, cwd });
      expect(left.code, left.stdout).toBe(0);
    });
  }
});
