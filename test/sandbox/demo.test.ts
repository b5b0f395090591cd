import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForSuite } from '../helpers/temp-dir.js';
import type { RateProbe } from './rate-probe.js';

const root = join(import.meta.dirname, '../..');
const dir = tempDirForSuite('svc-demo-test-');

/**
 * Runs `npm run demo -- …` as a user would (tsx), with its own temp directory, and with
 * rate-probe.ts preloaded: `probe()` tells which rate limits the demo's requests went through.
 */
function demo(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000) {
  const tmp = mkdtempSync(join(dir, 'tmp-'));
  const probeFile = join(dir, `${tmp.slice(dir.length + 1)}-rate-probe.json`);
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './test/sandbox/rate-probe.ts', 'scripts/demo.ts', ...args],
    {
      cwd: root,
      env: { ...base, TMPDIR: tmp, NO_COLOR: '1', RATE_PROBE_OUT: probeFile, ...env },
    },
  );
  const probe = (): RateProbe | undefined =>
    existsSync(probeFile) ? (JSON.parse(readFileSync(probeFile, 'utf8')) as RateProbe) : undefined;
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
    tmp: string;
    probe: typeof probe;
  }>((resolve) => {
    // A backstop for a hung demo, not a measurement.
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, tmp, probe });
    });
  });
}

const leftovers = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('svc-gitops-demo-'));

describe('npm run demo', () => {
  it('runs the four README steps with their exit codes, without a rate limit, and leaves no temp files', async () => {
    const run = await demo(['--profile', 'spec']);
    expect(run.stderr).not.toContain('demo failed');
    expect([...run.stdout.matchAll(/\(exit code (\d+)\)/g)].map((m) => Number(m[1]))).toEqual([0, 2, 1, 2]);
    expect(run.code).toBe(0);
    // The client's default rate limit (60 calls/min) protects real dashboards, not the sandbox:
    // every request of the demo went through a limiter that is off (0), none through one that waits.
    expect(run.probe()?.takes).toBeGreaterThan(0);
    expect(run.probe()?.limits).toEqual([0]);
    expect(leftovers(run.tmp)).toEqual([]);
    // Each echoed command is the one run, with the setting only its step has and why.
    expect(run.stdout).toMatch(
      /\n# .*safe mode.*\n\$ SVC_SAFE_MODE=false svc-gitops apply \S+plan\.json -c /,
    );
    expect(run.stdout.match(/SVC_SAFE_MODE=false/g)).toHaveLength(1);
    expect(run.stderr).toContain('warning: safe mode is on: apply will refuse this plan');
  });

  it('is not thrown off by SVC_* settings of the shell it runs in', async () => {
    // As after sourcing a sandbox's lines, or with a real dashboard's settings exported.
    const run = await demo([], { SVC_NAMESPACE: 'acme', SVC_CONCURRENCY: 'many', SVC_REQUEST_TIMEOUT: '1' });
    expect(run.stderr).not.toContain('demo failed');
    expect([...run.stdout.matchAll(/\(exit code (\d+)\)/g)].map((m) => Number(m[1]))).toEqual([0, 2, 1, 2]);
    expect(run.code).toBe(0);
  });

  it('refuses an unknown profile or option with a usage message, not a stack trace', async () => {
    // Two independent processes: run side by side, as neither waits on the other.
    const [profile, option] = await Promise.all([demo(['--profile', 'prod']), demo(['--profil', 'spec'])]);
    expect(profile.code).toBe(1);
    expect(profile.stderr).toContain('unknown --profile "prod"');
    expect(profile.stdout).not.toContain('━━');
    expect(option.code).toBe(1);
    expect(option.stderr).toContain("Unknown option '--profil'");
    expect(option.stderr).not.toMatch(/\n\s+at /);
  });
});
