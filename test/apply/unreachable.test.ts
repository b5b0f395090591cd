import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ApplyEvent, applyPlan } from '../../src/apply/index.js';
import { lastUnfinishedRun, readJournal } from '../../src/apply/journal.js';
import { statePaths } from '../../src/apply/state-dir.js';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { fastClientEnv, sandboxControl } from '../helpers/sandbox.js';
import { tempDirForSuite } from '../helpers/temp-dir.js';
import { hookedFs } from './hooked-fs.js';
import { startWorld } from './world.js';

/**
 * The dashboard dies in the middle of an apply. Once a call fails because nothing answers at the
 * dashboard's address (after that call's own retries), apply starts no new call: the rest is
 * skipped as DASHBOARD_UNREACHABLE, the confirming re-read is not attempted, the journal lets
 * `apply --resume` finish later, and the report ends with that next step (exit 1). A dashboard
 * that answers with errors never trips this.
 */

const SITES = 15;

/** 15 sites with one plugin each: ignoring it everywhere is one call per site. */
const FLEET = `sites:\n${Array.from(
  { length: SITES },
  (_, i) =>
    `  - id: ${i + 1}\n    url: https://site${i + 1}.fleet.test/\n    plugins:\n      akismet/akismet.php: "5.3.0 -> 5.3.1"\n`,
).join('')}`;

const CONFIG = `version: 1
ignores:
  rules:
    - sites: [all]
      plugins: [akismet/akismet.php]
`;

const CWD = '/work';
const JOURNAL_OF = (sandbox: RunningSandbox) => statePaths(`${CWD}/.svc-gitops`, sandbox.url).journal;

interface JsonReport {
  calls: number;
  interrupted: boolean;
  counts: Record<string, number>;
  outcomes: Array<{ status: string; code?: string; message?: string; unverified?: boolean }>;
}

const openSandbox = closedAfterEach(async (port: number = 0, statePath?: string) =>
  startSandbox({
    fleet: parseFleet(FLEET),
    profile: 'spec',
    seed: 1,
    port,
    ...(statePath ? { statePath } : {}),
  }),
);
const openWorld = closedAfterEach(startWorld);

describe('apply when the dashboard becomes unreachable', () => {
  const stateDir = tempDirForSuite('svc-gitops-unreachable-');

  it('starts no new call after a refused one: the rest is skipped with the reason, nothing waits', async () => {
    const sandbox = await openSandbox();
    const fs = memoryFs({ [`${CWD}/svc-gitops.yaml`]: CONFIG });
    const killed = hookedFs(fs, (n) => {
      if (n === 3) void sandbox.close();
    });
    const run = await cli(['apply', '--auto-approve', '--format', 'json'], {
      // Real retry back-off and a rate limit, as in the reviewer's repro: the old code spent
      // minutes here (every remaining call waited out its retries and the limiter).
      env: { ...sandbox.env(), SVC_CONCURRENCY: '1', SVC_RATE_LIMIT: '12' },
      fs: killed,
      cwd: CWD,
    });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.interrupted).toBe(false);
    // Three calls answered, then at most one more call (the one that found nobody there) before
    // the stop; never the other eleven.
    expect(report.calls).toBeLessThanOrEqual(4);
    expect(report.counts.done).toBe(3);
    expect(report.counts.failed).toBe(report.calls - 3);
    const skipped = report.outcomes.filter((o) => o.status === 'skipped');
    expect(skipped.length).toBe(SITES - report.calls);
    for (const outcome of skipped) {
      expect(outcome.code).toBe('DASHBOARD_UNREACHABLE');
      expect(outcome.message).toMatch(/not started: the dashboard could not be reached.*ECONNREFUSED/);
    }
    // No re-read of a dashboard known to be gone: what the calls reported done is unconfirmed.
    for (const outcome of report.outcomes.filter((o) => o.status === 'done')) {
      expect(outcome.unverified).toBe(true);
    }
    expect(run.stderr).toContain('stopped (DASHBOARD_UNREACHABLE)');
    expect(run.stderr).toContain('apply --resume');

    // The journal: every announced call has an answer or a skip, and the run counts as unfinished.
    const unfinished = lastUnfinishedRun(readJournal(fs, JOURNAL_OF(sandbox)));
    expect(unfinished?.inDoubtCalls).toBe(0);
    expect(unfinished?.actions).toHaveLength(SITES);
  });

  it('the report ends with the next step, and `apply --resume` finishes once the dashboard is back', async () => {
    const statePath = join(stateDir, 'state.json');
    const first = await openSandbox(0, statePath);
    const port = Number(new URL(first.url).port);
    const fs = memoryFs({ [`${CWD}/svc-gitops.yaml`]: CONFIG });
    const env = fastClientEnv(first, { SVC_CONCURRENCY: '1' });
    const killed = hookedFs(fs, (n) => {
      if (n === 5) void first.close();
    });
    const stopped = await cli(['apply', '--auto-approve'], { env, fs: killed, cwd: CWD });
    expect(stopped.code, stopped.stderr).toBe(1);
    expect(stopped.stdout).toMatch(/^Apply stopped \(the dashboard could not be reached\)/m);
    expect(stopped.stdout).toMatch(/skipped \(DASHBOARD_UNREACHABLE\): \d+/);
    const lastLine = stopped.stdout.trimEnd().split('\n').at(-1);
    expect(lastLine).toMatch(
      /^Once the dashboard answers again, run `svc-gitops apply --resume` to finish the remaining actions \(\d+ not started\)\.$/,
    );

    // The same dashboard comes back (same address, the state it saved): resume does the rest.
    const second = await openSandbox(port, statePath);
    expect(second.url).toBe(first.url);
    await sandboxControl(second)('POST', 'stats/reset');
    const resumed = await cli(['apply', '--resume'], { env, fs, cwd: CWD });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('approved by resume');
    expect(resumed.stdout).toMatch(/^Apply complete/);
    // Only what the stopped run had not done is sent again.
    const stats = (await sandboxControl(second)('GET', 'stats')) as { abilities: Record<string, number> };
    const writes = stats.abilities['svc/ignore-site-plugins-v1'] ?? 0;
    expect(writes).toBeGreaterThanOrEqual(SITES - 6);
    expect(writes).toBeLessThanOrEqual(SITES - 5);
    const again = await cli(['plan', '--detailed-exitcode'], { env, fs, cwd: CWD });
    expect(again.code, again.stdout).toBe(0);
  });

  it.each([
    [
      'HTTP 503 replies',
      // Eight failed replies (each call is tried four times): two calls fail.
      [{ kind: 'status' as const, status: 503, ability: 'ignore-site-plugins-v1', times: 8 }],
      'HTTP_ERROR',
    ],
    [
      'connections dropped after they were made',
      [{ kind: 'reset' as const, ability: 'ignore-site-plugins-v1', times: 8 }],
      'CONNECTION_FAILED',
    ],
  ])('%s (a live dashboard) do not stop the apply', async (_name, faults, code) => {
    const world = await openWorld({ fleet: FLEET, config: CONFIG, profile: 'spec', faults });
    const { plan, live } = await world.plan();
    const events: ApplyEvent[] = [];
    const result = await applyPlan(plan, {
      client: world.client(),
      live,
      settings: { safeMode: true, concurrency: 1 },
      onEvent: (event) => events.push(event),
    });
    expect(result.calls).toBe(SITES);
    expect(result.outcomes.filter((o) => o.status === 'failed').map((o) => o.code)).toEqual([code, code]);
    expect(result.outcomes.filter((o) => o.status === 'skipped')).toEqual([]);
    expect(events.some((event) => event.type === 'stopped')).toBe(false);
    // The re-read ran and confirmed the rest.
    expect(result.outcomes.filter((o) => o.status === 'done' && !o.unverified)).toHaveLength(SITES - 2);
  });
});
