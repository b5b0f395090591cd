import { describe, expect, it } from 'vitest';
import { type ApplyJournal, applyPlan } from '../../src/apply/index.js';
import { changeKey } from '../../src/apply/keys.js';
import { statePaths } from '../../src/apply/state-dir.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { run } from './cli-helpers.js';
import { changeTouchedSite, startWorld } from './world.js';

/** An apply never reports as done what the dashboard does not hold, and then never exits 0. */

const open = closedAfterEach(startWorld);

interface Outcome {
  action: { op: string; site_id: number; slug: string };
  status: string;
  code?: string;
  unverified?: boolean;
}

const outcomesOf = (stdout: string): Outcome[] => JSON.parse(stdout).outcomes;

describe('apply reports only what the dashboard holds', () => {
  it('an ignore whose call failed is not done because the site already ignores some versions', async () => {
    const w = await open({
      fleet: `sites:
  - id: 1
    url: https://alpha.fleet.test/
    plugins: {akismet/akismet.php: "5.3.0 -> 5.3.1"}
    ignores: {plugins: {akismet/akismet.php: ["5.3.1"]}}
`,
      config: 'version: 1\nignores:\n  rules:\n    - {sites: [all], plugins: [akismet/akismet.php]}\n',
      faults: [
        { kind: 'status', status: 500, ability: 'ignore-site-plugins-v1' },
        { kind: 'status', status: 500, ability: 'set-ignored-updates-v1' },
      ],
    });
    const result = await run(w, ['apply', '--auto-approve', '--format', 'json']);
    expect(result.code).toBe(1);
    expect(outcomesOf(result.stdout).map((o) => [o.action.op, o.status])).toEqual([['ignore', 'failed']]);
  });

  it('a re-read that fails leaves done outcomes unverified, and the run exits 1', async () => {
    const w = await open();
    // The plan's read passes; the re-read after the calls fails.
    await w.control('PUT', 'faults', [{ kind: 'status', status: 503, ability: 'list-updates-v1', skip: 1 }]);
    const result = await run(w, ['apply', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Apply finished unconfirmed: \d+ done \(\d+ not verified\), 0 failed/m);
    expect(result.stdout).toContain('the re-read after applying failed');
  });

  it('an update whose call failed is not done because a newer release replaced its pending move', async () => {
    const w = await open({ faults: [{ kind: 'status', status: 503, ability: 'run-updates-v1' }] });
    const { plan, live } = await w.plan();
    // Between the plan and the re-read, akismet 5.4.0 is released for site 2 (still on 5.3.0).
    await changeTouchedSite(w);
    const result = await applyPlan(plan, {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 2 },
    });
    const akismet = result.outcomes.find(
      (o) => o.action.op === 'update' && o.action.site_id === 2 && o.action.slug === 'akismet/akismet.php',
    );
    expect(akismet).toMatchObject({ status: 'failed', code: 'HTTP_ERROR' });
    expect((await w.stats()).updates_run).toEqual([]);
  });

  it('an update an earlier, killed run recorded done is checked, and failed when still pending', async () => {
    const w = await open();
    const { plan } = await w.plan();
    const update = plan.actions.find((a) => a.op === 'update')!;
    // A killed run whose call for this update was answered "done", though nothing changed.
    const { journal, dir } = statePaths('/work/.svc-gitops', w.sandbox.url);
    w.fs.mkdirSync(dir, { recursive: true });
    const lines = [
      {
        type: 'run-start',
        run_id: 'r0',
        at: 't',
        plan_id: 'p',
        dashboard: 'd',
        desired_digest: 'x',
        actions: [],
      },
      {
        type: 'result',
        run_id: 'r0',
        seq: 0,
        at: 't',
        outcomes: [{ key: changeKey(update), status: 'done' }],
      },
    ];
    w.fs.writeFileSync(journal, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);

    const first = await run(w, ['apply', '--auto-approve', '--format', 'json']);
    expect(first.code).toBe(1);
    const outcome = outcomesOf(first.stdout).find(
      (o) => o.action.site_id === update.site_id && o.action.slug === update.slug && o.action.op === 'update',
    );
    expect(outcome).toMatchObject({ status: 'failed', code: 'NOT_APPLIED' });
    // That run ended with its outcomes re-read: the next one runs what is still pending.
    const second = await run(w, ['apply', '--auto-approve']);
    expect(second.code, second.stdout).toBe(0);
    expect((await w.plan()).plan.actions).toEqual([]);
  });
});

describe('write-ahead when the journal fails: every kind of failed write stops the sending', () => {
  it("a window's sent line that cannot be made durable (a failed fsync)", async () => {
    let windows = 0;
    const { failed, atReturn, later } = await applyWithJournal({
      // The second window's `sent` line cannot be written (a full disk, a failed fsync).
      append: async (record) => {
        if (record.type === 'sent' && ++windows === 2) throw new Error('ENOSPC: no space left');
      },
      appendAll: async () => {},
      close() {},
    });
    expect(String(failed)).toContain('ENOSPC');
    expect(atReturn).toBeLessThanOrEqual(8); // the first window's calls only
    expect(later).toBe(atReturn); // and apply returned only once calls in flight were answered
  });

  it("a window's sent line whose write throws at once (as writeSync does on a full disk)", async () => {
    let windows = 0;
    const { failed, atReturn, later } = await applyWithJournal({
      append: (record) => {
        if (record.type === 'sent' && ++windows === 2) throw new Error('ENOSPC: no space left');
        return Promise.resolve();
      },
      appendAll: async () => {},
      close() {},
    });
    expect(String(failed)).toContain('ENOSPC');
    expect(atReturn).toBeLessThanOrEqual(8);
    expect(later).toBe(atReturn);
  });

  it('a result line that cannot be made durable', async () => {
    let results = 0;
    const { failed, atReturn, later } = await applyWithJournal({
      append: async (record) => {
        if (record.type === 'result' && ++results === 1) throw new Error('EIO: fsync failed');
      },
      appendAll: async () => {},
      close() {},
    });
    expect(String(failed)).toContain('EIO');
    expect(atReturn).toBeLessThanOrEqual(2); // the failed call's and the one in flight beside it
    expect(later).toBe(atReturn);
  });

  it('a result line whose write throws at once', async () => {
    let results = 0;
    const { failed, atReturn, later } = await applyWithJournal({
      append: (record) => {
        if (record.type === 'result' && ++results === 1) throw new Error('ENOSPC: no space left');
        return Promise.resolve();
      },
      appendAll: async () => {},
      close() {},
    });
    expect(String(failed)).toContain('ENOSPC');
    expect(atReturn).toBeLessThanOrEqual(2);
    expect(later).toBe(atReturn);
  });
});

/**
 * Applies a plan of twelve ignore calls (one per site, each slow enough that calls are in
 * flight when a journal write fails) with `journal`; counts the writes the sandbox received
 * when apply returned, and again a moment later (nothing may still be on its way).
 */
async function applyWithJournal(journal: ApplyJournal) {
  const sites = Array.from(
    { length: 12 },
    (_, i) =>
      `  - {id: ${i + 1}, url: https://s${i + 1}.fleet.test/, plugins: {akismet/akismet.php: "5.3.0 -> 5.3.1"}}`,
  );
  const w = await open({
    fleet: `sites:\n${sites.join('\n')}\n`,
    config: 'version: 1\nignores:\n  rules:\n    - {sites: [all], plugins: [akismet/akismet.php]}\n',
    faults: [{ kind: 'latency', delayMs: 40, method: 'POST' }],
  });
  const writes = async () => {
    const { abilities } = await w.stats();
    return Object.entries(abilities)
      .filter(([name]) => /ignore-site-|set-ignored/.test(name))
      .reduce((n, [, count]) => n + count, 0);
  };
  const { plan, live } = await w.plan();
  expect(plan.actions).toHaveLength(12);
  const failed = await applyPlan(plan, {
    client: w.client(),
    live,
    settings: { safeMode: true, concurrency: 2 },
    journal,
  }).catch((error: Error) => error);
  const atReturn = await writes();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { failed, atReturn, later: await writes() };
}
