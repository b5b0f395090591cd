import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KILL_CONFIG } from '../../scripts/soak/kill-harness.js';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * Issue 21, finding 2: two applies against one dashboard at once, in two processes, where the
 * second names it differently: through a symlinked config, by another loopback spelling, or from
 * another state directory (another checkout). The first, a child process, holds the lock while
 * its writes go out slowly; the second must be refused (LOCKED) before it sends anything, and no
 * update may run twice.
 */
const REPO = resolve(import.meta.dirname, '../..');
const MAIN = join(REPO, 'src/cli/main.ts');
const TSX = import.meta.resolve('tsx');

let sandbox: RunningSandbox | undefined;
afterEach(() => sandbox?.close());

interface Side {
  cwd: string;
  url: string;
  argv: string[];
}

async function stats(s: RunningSandbox) {
  return (await (await fetch(`${s.url}/__sandbox/stats`)).json()) as {
    abilities: Record<string, number>;
    updates_run: Array<{ count: number }>;
  };
}

/** Starts `first` as a child; once it has begun applying, runs `second` in this process. */
async function race(setup: (root: string, port: string) => { first: Side; second: Side }) {
  const fleet = generateFleet({ sites: 8, pendingPerSite: 2, ignoredPerSite: 0, seed: 21 });
  sandbox = await startSandbox({
    fleet,
    profile: 'spec',
    faults: [{ kind: 'latency', method: 'POST', delayMs: 100 }],
  });
  const root = tempDirForFile('svc-lock-race-');
  const home = join(root, 'home');
  mkdirSync(home);
  const { first, second } = setup(root, new URL(sandbox.url).port);
  const env = (url: string) => ({
    ...sandbox?.env(),
    SVC_URL: url,
    SVC_RATE_LIMIT: '0',
    SVC_CONCURRENCY: '1',
    HOME: home,
    XDG_STATE_HOME: '',
    SVC_GITOPS_LOCK_DIR: '',
    NO_COLOR: '1',
  });
  const child = spawn(process.execPath, ['--import', TSX, MAIN, ...first.argv], {
    cwd: first.cwd,
    env: { ...process.env, ...env(first.url) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let childErr = '';
  const started = new Promise<void>((done, fail) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      childErr += chunk;
      if (/apply: \d+ action/.test(childErr)) done();
    });
    child.on('exit', () => fail(new Error(`the first apply ended before applying: ${childErr}`)));
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  await started;
  const writesBefore = await writeCount();
  const blocked = await cli(second.argv, { env: env(second.url), cwd: second.cwd });
  const writesDuring = (await writeCount()) - writesBefore;
  const firstCode = await exited;
  const after = await stats(sandbox);
  return {
    blocked,
    firstCode,
    childErr,
    maxRuns: Math.max(0, ...after.updates_run.map((u) => u.count)),
    writesDuring,
  };
}

async function writeCount(): Promise<number> {
  if (!sandbox) return 0;
  const { abilities } = await stats(sandbox);
  return Object.entries(abilities)
    .filter(([name]) => /ignore-site-|set-ignored|run-updates|update-site/.test(name))
    .reduce((n, [, count]) => n + count, 0);
}

function checkout(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'svc-gitops.yaml'), KILL_CONFIG);
  return dir;
}

function expectExcluded(result: Awaited<ReturnType<typeof race>>) {
  expect(result.firstCode, result.childErr).toBe(0);
  expect(result.blocked.code, result.blocked.stderr).toBe(1);
  expect(result.blocked.stderr).toContain('error [LOCKED]');
  expect(result.blocked.stderr).toContain('another apply is running against this dashboard');
  // The refused apply sent nothing that the first did not: no update ran twice.
  expect(result.maxRuns).toBe(1);
}

describe('the apply lock across processes', () => {
  it('holds when the second apply reaches the same config through a symlink', async () => {
    const result = await race((root, port) => {
      const dir = checkout(root, 'repo');
      const other = join(root, 'elsewhere');
      mkdirSync(other);
      symlinkSync(join(dir, 'svc-gitops.yaml'), join(other, 'link.yaml'));
      const url = `http://127.0.0.1:${port}`;
      return {
        first: { cwd: dir, url, argv: ['apply', '--auto-approve'] },
        second: { cwd: other, url, argv: ['apply', '--auto-approve', '-c', 'link.yaml'] },
      };
    });
    expectExcluded(result);
  });

  it('holds when the two name the dashboard by different loopback spellings', async () => {
    const result = await race((root, port) => {
      const dir = checkout(root, 'repo');
      return {
        first: { cwd: dir, url: `http://127.0.0.1:${port}`, argv: ['apply', '--auto-approve'] },
        second: { cwd: dir, url: `http://localhost:${port}/`, argv: ['apply', '--auto-approve'] },
      };
    });
    expectExcluded(result);
  });

  it('holds across two checkouts with their own state directories', async () => {
    let firstDir = '';
    const result = await race((root, port) => {
      const url = `http://127.0.0.1:${port}`;
      firstDir = checkout(root, 'one');
      return {
        first: { cwd: firstDir, url, argv: ['apply', '--auto-approve', '--state-dir', 'state-a'] },
        second: {
          cwd: checkout(root, 'two'),
          url,
          argv: ['apply', '--auto-approve', '--state-dir', 'state-b'],
        },
      };
    });
    expectExcluded(result);
    // The first kept its journal where it was told to: only the lock is shared.
    expect(fs.readdirSync(join(firstDir, 'state-a')).some((name) => name.startsWith('journal-'))).toBe(true);
  });
});
