import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { REPO, STACK_TRACE, sandboxEnv, sandboxStats, tempDir } from './helpers.js';

const MAIN = join(REPO, 'src/cli/main.ts');
const TSX = import.meta.resolve('tsx');

/** One ignore call per site: many calls, so most wait for the rate limiter when the signal comes. */
const CONFIG = `version: 1
ignores:
  rules:
    - sites: [all]
      plugins: [akismet/akismet.php, jetpack/jetpack.php]
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
`;

/**
 * A real SIGINT into a real `apply --auto-approve` process held back by its rate limiter, with
 * every write taking 1.5 s at the dashboard so calls are in flight when the signal comes. The
 * sandbox counts every request it receives: none may arrive after the signal (in-flight ones
 * arrived before it), the process exits 130 soon after the in-flight answers, and the journal
 * lets `apply --resume` finish.
 */
describe('Ctrl-C during a rate-limited apply', () => {
  it('sends nothing after the signal, lets in-flight calls finish and exits 130 within 2 s of them', async () => {
    let sandbox: RunningSandbox | undefined;
    try {
      sandbox = await startSandbox({
        fleet: generateFleet({ sites: 40, pendingPerSite: 2, seed: 3 }),
        profile: 'compat-6.1',
        faults: [{ kind: 'latency', delayMs: 1500, method: 'POST' }],
      });
      const cwd = tempDir('svc-gitops-sigint-');
      writeFileSync(join(cwd, 'svc-gitops.yaml'), CONFIG);
      const env = { ...sandboxEnv(sandbox, tempDir()), SVC_RATE_LIMIT: '8', SVC_SAFE_MODE: 'false' };
      const child = spawn(process.execPath, ['--import', TSX, MAIN, 'apply', '--auto-approve'], {
        cwd,
        env: { ...process.env, ...env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stdout.resume();
      const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
        child.on('exit', (code) => resolve({ code, at: Date.now() })),
      );
      // Wait until the calls started and the limiter's window is full (8 requests a minute: the
      // reads and two calls); the other workers' calls then wait for the limiter.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`apply never started: ${stderr}`)), 30_000);
        child.stderr.on('data', (chunk: string) => {
          stderr += chunk;
          if (/apply: \d+ action\(s\) in \d+ call\(s\)/.test(stderr)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const atSignal = (await sandboxStats(sandbox)).requests_total;
      const signalledAt = Date.now();
      child.kill('SIGINT');
      // A run that waits out the limiter (most of a minute) is stopped here and fails below.
      const ended = await Promise.race([
        exited,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
      ]);
      if (!ended) child.kill('SIGKILL');
      const { code, at } = ended ?? { code: null, at: Number.POSITIVE_INFINITY };
      const afterExit = (await sandboxStats(sandbox)).requests_total;

      expect(code, stderr).toBe(130);
      expect(afterExit - atSignal).toBe(0);
      // In flight at the signal: at most 1.5 s to their answers, then 2 s to exit.
      expect(at - signalledAt).toBeLessThan(3_500);
      expect(stderr).toContain('svc-gitops: interrupted');
      expect(stderr).not.toMatch(STACK_TRACE);
    } finally {
      await sandbox?.close();
    }
  }, 60_000);
});
