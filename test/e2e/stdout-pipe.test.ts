import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { REPO, sandboxEnv, tempDir } from './helpers.js';

const MAIN = join(REPO, 'src/cli/main.ts');
const TSX = import.meta.resolve('tsx');

/** Enough sites that the plan is many times a pipe's buffer (64 KiB), few enough to plan quickly. */
const SITES = 500;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ fleet: generateFleet({ sites: SITES, pendingPerSite: 4, seed: 9 }) });
});
afterAll(async () => {
  await sandbox?.close();
});

/** `svc-gitops plan -c examples/minimal.yaml ARGS` from the sources, stdout and stderr piped. */
function spawnPlan(args: string[], cwd: string) {
  const child = spawn(
    process.execPath,
    ['--import', TSX, MAIN, 'plan', '-c', join(REPO, 'examples/minimal.yaml'), ...args],
    {
      cwd,
      env: { ...process.env, ...sandboxEnv(sandbox, tempDir()), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = { stderr: '' };
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output.stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, output, exited };
}

/**
 * A real `plan` process whose stdout is a pipe its reader drains late: a pipe takes writes
 * asynchronously, and the process must neither exit with output still queued (the plan would be
 * cut short under exit 0) nor queue it all in memory.
 */
describe('plan into a pipe that is read late', () => {
  it('writes the whole plan before it exits', async () => {
    const { child, output, exited } = spawnPlan(['--format', 'json', '--quiet'], tempDir('svc-gitops-pipe-'));
    // Nothing is read until the process has planned and begun to exit.
    child.stdout.pause();
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve) => {
      child.stderr.on('data', () => {
        if (output.stderr.includes(`Read ${SITES} sites`) || output.stderr.includes('error')) resolve();
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const closed = new Promise((resolve) => child.stdout.on('close', resolve));
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    const code = await exited;
    await closed;
    const text = Buffer.concat(chunks).toString('utf8');
    expect(code, output.stderr).toBe(0);
    expect(text.length).toBeGreaterThan(4 * 64 * 1024);
    const plan = JSON.parse(text) as Plan;
    expect(plan.actions.length).toBe(plan.summary.update + plan.summary.ignore + plan.summary.unignore);
  });
});

/** `plan --out p.json | head -1`: the reader closes the pipe after its first line. */
describe('plan --out into a pipe closed early', () => {
  it('saves the whole plan and ends without a stack trace', async () => {
    const cwd = tempDir('svc-gitops-pipe-closed-');
    const { child, output, exited } = spawnPlan(['--out', 'p.json', '--quiet'], cwd);
    // As `head -1`: read the first chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await exited;
    expect(code, output.stderr).toBe(0);
    expect(output.stderr).not.toMatch(/\n\s+at |Error:|internal error/);
    const plan = JSON.parse(readFileSync(join(cwd, 'p.json'), 'utf8')) as Plan;
    expect(plan.actions.length).toBe(plan.summary.update + plan.summary.ignore + plan.summary.unignore);
    expect(plan.actions.length).toBeGreaterThan(SITES);
  });

  it('keeps the exit code: --detailed-exitcode is 2 though nobody read the plan', async () => {
    const { child, output, exited } = spawnPlan(['--detailed-exitcode'], tempDir('svc-gitops-pipe-closed-'));
    child.stdout.once('data', () => child.stdout.destroy());
    expect(await exited, output.stderr).toBe(2);
    expect(output.stderr).not.toMatch(/\n\s+at |Error:|internal error/);
  });
});
