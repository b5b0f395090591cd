import { homedir, hostname } from 'node:os';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashboardKey } from '../../src/apply/dashboard-key.js';
import { lockDir, lockFile } from '../../src/apply/lock-dir.js';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { run, writesSent } from './cli-helpers.js';
import { CONFIG, maxRunsPerUpdate, startWorld } from './world.js';

/** End-to-end approval paths and refusals through the CLI against the sandbox. */

const open = closedAfterEach(startWorld);

describe.each(['spec', 'compat-6.1', 'next'] as SandboxProfile[])(
  'svc-gitops apply, plan now (%s)',
  (profile) => {
    it('without a terminal needs --auto-approve; with it applies everything and a re-run has nothing to do', async () => {
      const w = await open({ profile });
      const refused = await run(w, ['apply']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('[PREVIEW_REQUIRED]');
      expect(await writesSent(w)).toBe(0);

      const applied = await run(w, ['apply', '--auto-approve']);
      expect(applied.stderr).not.toContain('error');
      expect(applied.code).toBe(0);
      expect(applied.stdout).toMatch(/Apply complete: \d+ done, 0 failed/);
      const again = await run(w, ['apply', '--auto-approve']);
      expect(again.code).toBe(0);
      expect(again.stdout).not.toContain('Apply complete');
      expect(maxRunsPerUpdate(await w.stats())).toBe(1);
    });

    it('asks at the terminal and applies only on an explicit yes', async () => {
      const w = await open({ profile });
      const declined = await run(w, ['apply'], { answers: ['y'] });
      expect(declined.code).toBe(1);
      expect(declined.stderr).toContain("Only 'yes' will be accepted");
      expect(declined.stderr).toContain('apply cancelled');
      expect(await writesSent(w)).toBe(0);
      const accepted = await run(w, ['apply'], { answers: ['yes'] });
      expect(accepted.code).toBe(0);
      expect(accepted.stdout).toContain('approved by prompt');
    });
  },
);

describe('svc-gitops apply approval rules', () => {
  it('writes the report in the chosen format to --out as well as stdout', async () => {
    const w = await open();
    const result = await run(w, ['apply', '--auto-approve', '--format', 'markdown', '--out', 'report.md']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^### ✅ svc-gitops apply/m);
    expect(w.fs.readFileSync('/work/report.md', 'utf8')).toBe(
      result.stdout.slice(result.stdout.indexOf('### ')),
    );
    const unknown = await run(w, ['apply', '--format', 'yaml']);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      expect.stringContaining("argument 'yaml' is invalid. Allowed choices are text, markdown, json."),
    ]);
  });

  it('--target narrows the plan made now to those sites', async () => {
    const w = await open();
    const result = await run(w, [
      'apply',
      '--auto-approve',
      '--target',
      'beta.fleet.test',
      '--format',
      'json',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(new Set(report.outcomes.map((o: { action: { site_id: number } }) => o.action.site_id))).toEqual(
      new Set([2]),
    );
    const rest = await w.plan();
    expect(rest.plan.actions.some((a) => a.site_id === 2)).toBe(false);
    expect(rest.plan.actions.length).toBeGreaterThan(0);
  });

  it('requireUserConfirmation false applies without a prompt', async () => {
    const w = await open();
    const result = await run(w, ['apply'], { env: { SVC_REQUIRE_USER_CONFIRMATION: 'false' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('approved by no-confirmation');
  });

  it('a plan that needs approval is not satisfied by --auto-approve, only by a person', async () => {
    const w = await open();
    w.writeConfig(`${CONFIG}approval:\n  max_sites: 1\n`);
    const refused = await run(w, ['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[PREVIEW_REQUIRED]');
    expect(refused.stderr).toContain('--auto-approve is not enough');
    expect(await writesSent(w)).toBe(0);
    const approved = await run(w, ['apply', '--auto-approve'], { answers: ['yes'] });
    expect(approved.code).toBe(0);
  });

  it('refuses contradicting flags with CONFLICTING_PARAMETERS; --dry-run shows the calls and sends nothing', async () => {
    const w = await open();
    for (const argv of [
      ['apply', '--auto-approve', '--dry-run'],
      ['apply', 'plan.json', '--reviewed', 'plan.json'],
      ['apply', '--resume', '--reviewed', 'plan.json'],
      ['apply', 'plan.json', '--target', '1'],
    ]) {
      const result = await run(w, argv);
      expect(result.stderr, argv.join(' ')).toContain('[CONFLICTING_PARAMETERS]');
    }
    const dry = await run(w, ['apply', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/Dry run: \d+ call\(s\) would be sent/);
    expect(await writesSent(w)).toBe(0);
  });

  it('safe mode (the default) refuses high-risk actions before any call; safeMode false allows them', async () => {
    const w = await open({
      fleet: `sites:\n  - id: 1\n    url: https://core.fleet.test/\n    core: "6.8.1 -> 7.0"\n`,
      config: 'version: 1\nupdates:\n  - name: core\n    sites: [all]\n    kinds: [core]\n    max: major\n',
    });
    // Refused before the person is even asked.
    const blocked = await run(w, ['apply'], { answers: ['yes'] });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('[SAFE_MODE_BLOCKED]');
    expect(blocked.stderr).not.toContain("Only 'yes'");
    expect(blocked.stderr).toContain('SVC_SAFE_MODE=false');
    expect(await writesSent(w)).toBe(0);
    // A core major update also needs a person (approval rules): the prompt, not --auto-approve.
    const allowed = await run(w, ['apply'], { env: { SVC_SAFE_MODE: 'false' }, answers: ['yes'] });
    expect(allowed.code).toBe(0);
  });

  it('a second apply while one holds the lock is refused with the holder named', async () => {
    const w = await open();
    const paths = { lock: lockFile(lockDir(w.env, homedir()), await dashboardKey(w.sandbox.url)) };
    w.fs.mkdirSync(dirname(paths.lock), { recursive: true });
    // This very process is alive on this host: its lock is not stale.
    w.fs.writeFileSync(
      paths.lock,
      JSON.stringify({ pid: process.pid, host: hostname(), started_at: '2026-01-01T00:00:00.000Z' }),
    );
    const refused = await run(w, ['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[LOCKED]');
    expect(refused.stderr).toContain(`pid ${process.pid} on ${hostname()}`);
    expect(await writesSent(w)).toBe(0);
    // A lock of a process that is gone is taken over with a warning.
    w.fs.writeFileSync(
      paths.lock,
      JSON.stringify({ pid: 2 ** 22 + 17, host: hostname(), started_at: '2026-01-01T00:00:00.000Z' }),
    );
    const taken = await run(w, ['apply', '--auto-approve']);
    expect(taken.code).toBe(0);
    expect(taken.stderr).toContain('taking over a stale apply lock');
    expect(w.fs.existsSync(paths.lock)).toBe(false);
  });

  it('exits 1 and reports the dashboard error code when an update fails; waves stop at their threshold', async () => {
    const w = await open({
      fleet: `sites:
  - {id: 1, url: https://canary.fleet.test/, plugins: {akismet/akismet.php: "5.3.0 -> 5.3.1"}, fail: ["plugin:akismet/akismet.php"]}
  - {id: 2, url: https://rest.fleet.test/, plugins: {akismet/akismet.php: "5.3.0 -> 5.3.1"}}
`,
      config: `version: 1
updates:
  - {name: routine, sites: [all], kinds: [plugins], max: minor}
rollout:
  waves:
    - {name: canary, sites: [canary.fleet.test], max_failures: 0}
    - {name: rest, sites: [all], max_failures: 0}
`,
    });
    const result = await run(w, ['apply', '--auto-approve', '--format', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.outcomes.map((o: { status: string; code?: string }) => [o.status, o.code])).toEqual([
      ['failed', 'svc_update_failed'],
      ['skipped', 'WAVE_STOPPED'],
    ]);
  });

  it('a journal that cannot be written is an I/O error naming the journal, not a bug, and nothing is sent', async () => {
    const w = await open();
    const journalFds = new Set<number>();
    const fullDisk = new Proxy(w.fs, {
      get(target, name, receiver) {
        if (name === 'openSync')
          return (path: string, ...rest: unknown[]) => {
            const fd = (target.openSync as (...a: unknown[]) => number)(path, ...rest);
            if (String(path).includes('/journal-')) journalFds.add(fd);
            return fd;
          };
        if (name === 'writeSync')
          return (fd: number, ...rest: unknown[]) => {
            if (journalFds.has(fd))
              throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
            return (target.writeSync as (...a: unknown[]) => number)(fd, ...rest);
          };
        return Reflect.get(target, name, receiver);
      },
    });
    const result = await run(w, ['apply', '--auto-approve'], { fs: fullDisk });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('internal error');
    expect(result.stderr).toMatch(
      /error \[IO_ERROR\]: cannot write the apply journal \/work\/\.svc-gitops\/journal-/,
    );
    expect(await writesSent(w)).toBe(0);
  });
});
