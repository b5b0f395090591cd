import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForSuite } from '../helpers/temp-dir.js';

const root = join(import.meta.dirname, '../..');
const dir = tempDirForSuite('svc-demo-test-');

/** Runs `npm run demo -- …` as a user would (tsx), with its own temp directory. */
function demo(args: string[], env: Record<string, string> = {}, timeoutMs = 25_000) {
  const tmp = mkdtempSync(join(dir, 'tmp-'));
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')));
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', ...args], {
    cwd: root,
    env: { ...base, TMPDIR: tmp, NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const started = Date.now();
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number; tmp: string }>(
    (resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, ms: Date.now() - started, tmp });
      });
    },
  );
}

const leftovers = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('svc-gitops-demo-'));

describe('npm run demo', () => {
  it('runs the four README steps with their exit codes, quickly, and leaves no temp files', async () => {
    const run = await demo(['--profile', 'spec']);
    expect(run.stderr).not.toContain('demo failed');
    expect([...run.stdout.matchAll(/\(exit code (\d+)\)/g)].map((m) => Number(m[1]))).toEqual([0, 2, 1, 2]);
    expect(run.code).toBe(0);
    // The client's default rate limit (60 calls/min) protects real dashboards, not the sandbox.
    expect(run.ms).toBeLessThan(20_000);
    expect(leftovers(run.tmp)).toEqual([]);
  }, 60_000);

  it('is not thrown off by SVC_* settings of the shell it runs in', async () => {
    // As after sourcing a sandbox's lines, or with a real dashboard's settings exported.
    const run = await demo([], { SVC_NAMESPACE: 'acme', SVC_CONCURRENCY: 'many', SVC_REQUEST_TIMEOUT: '1' });
    expect(run.stderr).not.toContain('demo failed');
    expect([...run.stdout.matchAll(/\(exit code (\d+)\)/g)].map((m) => Number(m[1]))).toEqual([0, 2, 1, 2]);
    expect(run.code).toBe(0);
  }, 60_000);

  it('refuses an unknown profile or option with a usage message, not a stack trace', async () => {
    const profile = await demo(['--profile', 'prod']);
    expect(profile.code).toBe(1);
    expect(profile.stderr).toContain('unknown --profile "prod"');
    expect(profile.stdout).not.toContain('━━');
    const option = await demo(['--profil', 'spec']);
    expect(option.code).toBe(1);
    expect(option.stderr).toContain("Unknown option '--profil'");
    expect(option.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
