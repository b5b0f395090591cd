import { describe, expect, it } from 'vitest';
import { type ApplyEvent, type ApplyJournal, applyPlan } from '../../src/apply/index.js';
import { completedUpdates, type JournalRecord, openJournal, readJournal } from '../../src/apply/journal.js';
import { changeKey } from '../../src/apply/keys.js';
import { skipCompleted } from '../../src/apply/subset.js';
import type { Action } from '../../src/types.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { ignore, planOf, update } from './builders.js';
import { startWorld, type World, type WorldOptions } from './world.js';

/**
 * applyPlan's ordering, concurrency and stopping rules, driven through the real dashboard client
 * against the sandbox over loopback. What the dashboard did is read from the sandbox's own
 * counters (`/__sandbox/stats`), never from a stand-in of our client.
 */

const live = {
  capabilities: {
    surface: 'abilities' as const,
    canUnignore: true,
    canIgnore: true,
    canIgnoreCore: true,
    // Two sites per run-updates call, so a handful of sites makes several calls.
    queueThreshold: 2,
  },
};

interface SiteSpec {
  id: number;
  plugins?: Record<string, string>;
  themes?: Record<string, string>;
  core?: string;
  /** `<kind>:<slug>` items whose update fails on this site (svc_update_failed). */
  fail?: string[];
}

/** A fleet whose site URLs match the builders' (`https://site<id>.example.test/`). */
function fleetOf(sites: SiteSpec[]): string {
  const map = (items: Record<string, string>) =>
    `{${Object.entries(items)
      .map(([slug, move]) => `${slug}: "${move}"`)
      .join(', ')}}`;
  const lines = sites.map((site) => {
    const fields = [`id: ${site.id}`, `url: https://site${site.id}.example.test/`];
    if (site.core) fields.push(`core: "${site.core}"`);
    if (site.plugins) fields.push(`plugins: ${map(site.plugins)}`);
    if (site.themes) fields.push(`themes: ${map(site.themes)}`);
    if (site.fail) fields.push(`fail: [${site.fail.map((f) => `"${f}"`).join(', ')}]`);
    return `  - {${fields.join(', ')}}`;
  });
  return `sites:\n${lines.join('\n')}\n`;
}

const MOVE = '1.0.0 -> 1.0.1'; // the builders' from/to

const openWorld = closedAfterEach((options: WorldOptions) => startWorld({ profile: 'spec', ...options }));

/** Requests per ability the sandbox answered (e.g. `run-updates-v1`). */
async function abilityCount(world: World, ability: string): Promise<number> {
  const { abilities } = await world.stats();
  return abilities[`svc/${ability}`] ?? 0;
}

/** Calls in flight at once, as apply reports them (call-start … call-done). */
function inFlight() {
  let now = 0;
  let max = 0;
  return {
    onEvent(event: ApplyEvent) {
      if (event.type === 'call-start') max = Math.max(max, ++now);
      if (event.type === 'call-done') now -= 1;
    },
    get max() {
      return max;
    },
  };
}

/**
 * The real journal (memfs) with a hook: `onResult` runs as a call's answer is journalled and
 * apply waits for it before its re-read (execution awaits every result line), so another actor
 * can change the dashboard between the calls and the re-read, deterministically.
 */
function journalWith(
  hooks: { onResult?: () => Promise<void>; onSentWindow?: (window: number) => Promise<void> },
  fs = memoryFs({ '/state': null }),
  path = '/state/journal.jsonl',
): ApplyJournal & { records(): JournalRecord[] } {
  const real = openJournal(fs, path);
  let windows = 0;
  return {
    // A window of calls is announced by one `sent` line.
    async append(record) {
      await real.append(record);
      if (record.type === 'result') await hooks.onResult?.();
      if (record.type === 'sent') await hooks.onSentWindow?.(++windows);
    },
    appendAll: (records) => real.appendAll(records),
    close: () => real.close(),
    records: () => readJournal(fs, path),
  };
}

describe('applyPlan', () => {
  it('runs every action once, bounded by the concurrency, and verifies by re-reading', async () => {
    const actions = [
      ignore(1, 'plugin', 'i/i.php'),
      ...Array.from({ length: 9 }, (_, i) => update(i + 1, 'plugin', 'a/a.php')),
    ];
    const w = await openWorld({
      fleet: fleetOf(
        Array.from({ length: 9 }, (_, i) => ({
          id: i + 1,
          plugins: i === 0 ? { 'a/a.php': MOVE, 'i/i.php': MOVE } : { 'a/a.php': MOVE },
        })),
      ),
      queueThreshold: 2,
      // Every write takes a while at the dashboard, so calls overlap there.
      faults: [{ kind: 'latency', delayMs: 30, method: 'POST', ability: 'run-updates-v1' }],
    });
    const events: ApplyEvent[] = [];
    const calls = inFlight();
    const result = await applyPlan(planOf(actions), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 2 },
      onEvent: (e) => {
        events.push(e);
        calls.onEvent(e);
      },
    });
    expect(result.outcomes.map((o) => [o.status, o.unverified ?? false])).toEqual(
      Array(10).fill(['done', false]),
    );
    expect(result.calls).toBe(1 + 5);
    expect(calls.max).toBe(2);
    const stats = await w.stats();
    expect(stats.abilities['svc/ignore-site-plugins-v1']).toBe(1);
    expect(stats.abilities['svc/run-updates-v1']).toBe(5);
    // Every update ran exactly once on the dashboard.
    expect(stats.updates_run.map((u) => u.count)).toEqual(Array(9).fill(1));
    const starts = events.filter((e) => e.type === 'call-start');
    expect(starts[0]).toMatchObject({ call: { type: 'set-ignored', siteId: 1, slugs: ['i/i.php'] } });
    // The re-read came after the last call, and found every action in effect.
    expect(events.findIndex((e) => e.type === 'verify')).toBeGreaterThan(
      events.findLastIndex((e) => e.type === 'call-done'),
    );
    expect((await w.client().readLive()).pending).toEqual([]);
    expect(events.at(-1)?.type).toBe('finished');
  });

  it('blocks, without calling the dashboard, an ignore the connected surface cannot make', async () => {
    // A dashboard without the abilities API: the client falls back to REST v2, which cannot ignore items.
    const w = await openWorld({
      fleet: fleetOf([{ id: 1, plugins: { 'i/i.php': MOVE } }]),
      surfaces: { abilities: false },
    });
    const client = w.client();
    const capabilities = await client.capabilities();
    expect(capabilities).toMatchObject({ surface: 'rest', canIgnore: false });
    await w.control('POST', 'stats/reset');
    const result = await applyPlan(planOf([ignore(1, 'plugin', 'i/i.php')]), {
      client,
      live: { capabilities },
      settings: { safeMode: true, concurrency: 1 },
    });
    expect(result.outcomes).toMatchObject([{ status: 'blocked', code: 'UNSUPPORTED' }]);
    expect(result.calls).toBe(0);
    expect((await w.stats()).requests_total).toBe(0);
  });

  it('stops the rollout when a wave crosses its failure threshold; later actions are skipped', async () => {
    const actions = [
      update(1, 'plugin', 'a/a.php', { wave: 'canary' }),
      update(2, 'plugin', 'b/b.php', { wave: 'canary' }),
      update(3, 'plugin', 'a/a.php', { wave: 'rest' }),
    ];
    const w = await openWorld({
      fleet: fleetOf([
        { id: 1, plugins: { 'a/a.php': MOVE }, fail: ['plugin:a/a.php'] },
        { id: 2, plugins: { 'b/b.php': MOVE } },
        { id: 3, plugins: { 'a/a.php': MOVE } },
      ]),
    });
    const result = await applyPlan(planOf(actions), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 1 },
      maxFailures: () => 0,
    });
    expect(result.outcomes.map((o) => [o.status, o.code])).toEqual([
      ['failed', 'svc_update_failed'],
      ['skipped', 'WAVE_STOPPED'],
      ['skipped', 'WAVE_STOPPED'],
    ]);
    expect(await abilityCount(w, 'run-updates-v1')).toBe(1);
    expect((await w.stats()).updates_run).toEqual([]);
  });

  it('on abort finishes the call in flight, skips the rest and reports interrupted', async () => {
    const actions = [update(1, 'plugin', 'a/a.php'), update(2, 'theme', 't'), update(3, 'core', 'wordpress')];
    const w = await openWorld({
      fleet: fleetOf([
        { id: 1, plugins: { 'a/a.php': MOVE } },
        { id: 2, themes: { t: MOVE } },
        { id: 3, core: MOVE },
      ]),
      // The first call is still at the dashboard when Ctrl-C comes.
      faults: [{ kind: 'latency', delayMs: 30, ability: 'run-updates-v1' }],
    });
    const controller = new AbortController();
    const result = await applyPlan(planOf(actions), {
      client: w.client(),
      live,
      settings: { safeMode: false, concurrency: 1 },
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'call-start') controller.abort();
      },
    });
    expect(result.interrupted).toBe(true);
    expect(result.outcomes.map((o) => o.status)).toEqual(['done', 'skipped', 'skipped']);
    expect(await abilityCount(w, 'run-updates-v1')).toBe(1);
    // The call in flight was not cut off: its update ran on the dashboard.
    expect((await w.stats()).updates_run).toMatchObject([{ site_id: 1, slug: 'a/a.php', count: 1 }]);
  });

  it('turns an ignore the dashboard did not keep into NOT_PERSISTED, and a failed call that took effect into done', async () => {
    const w = await openWorld({
      fleet: fleetOf([
        { id: 1, plugins: { 'a/a.php': MOVE } },
        { id: 2, plugins: { 'a/a.php': MOVE } },
      ]),
    });
    // The dashboard acknowledges the ignore, but by the re-read it no longer holds it (another
    // admin took it back right after the call was answered).
    const other = w.client();
    const journal = journalWith({
      onResult: () =>
        other.setIgnored({ siteId: 1, kind: 'plugin', direction: 'unignore', slugs: ['a/a.php'] }),
    });
    const result = await applyPlan(planOf([ignore(1, 'plugin', 'a/a.php')]), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 1 },
      journal,
    });
    expect(result.outcomes[0]).toMatchObject({ status: 'failed', code: 'NOT_PERSISTED' });
    expect(await abilityCount(w, 'ignore-site-plugins-v1')).toBe(2); // ours and the take-back

    // The connection drops after the dashboard ran the update: the call fails, the re-read shows
    // the update is no longer pending.
    await w.control('PUT', 'faults', [{ kind: 'reset', ability: 'run-updates-v1', after: true, times: 1 }]);
    const outcome = await applyPlan(planOf([update(2, 'plugin', 'a/a.php')]), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 1 },
    });
    expect(outcome.outcomes[0]).toMatchObject({ status: 'done' });
    expect(outcome.outcomes[0]!.message).toMatch(/took effect although the call reported CONNECTION_FAILED/);
    expect((await w.stats()).updates_run).toMatchObject([{ site_id: 2, slug: 'a/a.php', count: 1 }]);
  });

  it('refuses high-risk actions in safe mode before any call, and holds back what the caller says', async () => {
    const actions = [update(1, 'core', 'wordpress'), update(2, 'plugin', 'a/a.php')];
    const w = await openWorld({
      fleet: fleetOf([
        { id: 1, core: MOVE },
        { id: 2, plugins: { 'a/a.php': MOVE } },
      ]),
    });
    const client = w.client();
    await expect(
      applyPlan(planOf(actions), { client, live, settings: { safeMode: true, concurrency: 1 } }),
    ).rejects.toMatchObject({ code: 'SAFE_MODE_BLOCKED' });
    expect((await w.stats()).requests_total).toBe(0);
    const result = await applyPlan(planOf(actions), {
      client,
      live,
      settings: { safeMode: true, concurrency: 1 },
      holdBack: (a) =>
        a.kind === 'core' ? { status: 'blocked', code: 'UNREVIEWED', message: 'not reviewed' } : undefined,
    });
    expect(result.outcomes.map((o) => o.status)).toEqual(['blocked', 'done']);
    expect((await w.stats()).updates_run).toMatchObject([{ site_id: 2, kind: 'plugin', count: 1 }]);
  });
});

describe('applyPlan after a failure no call can get past', () => {
  it('skips the rest once the session data budget is spent', async () => {
    const actions = [update(1, 'plugin', 'a/a.php'), update(2, 'theme', 't'), update(3, 'plugin', 'b/b.php')];
    const w = await openWorld({
      fleet: fleetOf([
        { id: 1, plugins: { 'a/a.php': MOVE } },
        { id: 2, themes: { t: MOVE } },
        { id: 3, plugins: { 'b/b.php': MOVE } },
      ]),
    });
    // A budget that the catalogue read fits in, and the first call's answer crosses.
    const probe = w.client();
    await probe.capabilities();
    const catalogueBytes = probe.stats().responseBytes;
    await w.control('POST', 'stats/reset');
    const result = await applyPlan(planOf(actions), {
      client: w.client({ maxSessionData: catalogueBytes + 10 }),
      live,
      settings: { safeMode: true, concurrency: 1 },
    });
    expect(result.outcomes.map((o) => [o.status, o.code])).toEqual([
      ['failed', 'RESOURCE_EXHAUSTED'],
      ['skipped', 'RESOURCE_EXHAUSTED'],
      ['skipped', 'RESOURCE_EXHAUSTED'],
    ]);
    expect(result.calls).toBe(1);
    expect(await abilityCount(w, 'run-updates-v1')).toBe(1);
  });
});

describe('applyPlan when a stop comes while a call waits for its journal line', () => {
  // Twelve calls (one per site, each its own plugin); at concurrency 2 the `sent` lines are
  // written eight at a time, so the ninth call waits for the second window.
  const twelve = (): Action[] =>
    Array.from({ length: 12 }, (_, i) => update(i + 1, 'plugin', `p${i + 1}/p.php`));
  const twelveSites = (fail?: number) =>
    fleetOf(
      Array.from({ length: 12 }, (_, i) => ({
        id: i + 1,
        plugins: { [`p${i + 1}/p.php`]: MOVE },
        ...(fail === i + 1 ? { fail: [`plugin:p${i + 1}/p.php`] } : {}),
      })),
    );

  it('sends no further update of a wave that crossed its threshold meanwhile', async () => {
    const w = await openWorld({
      fleet: twelveSites(8),
      // The eighth call (site 8's, the last of the first window) is slow to be answered, so it
      // is still in flight when the second window is being written.
      faults: [{ kind: 'latency', delayMs: 100, ability: 'run-updates-v1', skip: 7, times: 1 }],
    });
    const actions = twelve().map((a) => ({ ...a, wave: 'canary' }));
    let waveStopped!: () => void;
    const stopped = new Promise<void>((resolve) => {
      waveStopped = resolve;
    });
    const result = await applyPlan(planOf(actions), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 2 },
      maxFailures: () => 0,
      onEvent: (e) => {
        if (e.type === 'wave-stopped') waveStopped();
      },
      // The second window becomes durable only once the wave has stopped (or after 2 s).
      journal: journalWith({
        onSentWindow: async (window) => {
          if (window === 2) await Promise.race([stopped, new Promise((r) => setTimeout(r, 2000))]);
        },
      }),
    });
    expect(await abilityCount(w, 'run-updates-v1')).toBe(8);
    expect(result.calls).toBe(8);
    expect(result.outcomes[7]).toMatchObject({ status: 'failed', code: 'svc_update_failed' });
    expect(result.outcomes.slice(8).map((o) => [o.status, o.code])).toEqual(
      Array(4).fill(['skipped', 'WAVE_STOPPED']),
    );
  });

  it('sends nothing after an interrupt that came meanwhile', async () => {
    const w = await openWorld({ fleet: twelveSites() });
    const controller = new AbortController();
    const result = await applyPlan(planOf(twelve()), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 2 },
      signal: controller.signal,
      // Ctrl-C while the second window of `sent` lines is being written.
      journal: journalWith({
        onSentWindow: async (window) => {
          if (window === 2) controller.abort();
        },
      }),
    });
    expect(result.interrupted).toBe(true);
    expect(await abilityCount(w, 'run-updates-v1')).toBe(8);
    expect(result.outcomes.slice(8).map((o) => o.status)).toEqual(Array(4).fill('skipped'));
  });
});

describe('applyPlan when the re-read misses a site', () => {
  it('keeps the journal unsettled: an update reported done there is never sent again', async () => {
    const action = update(1, 'plugin', 'a/a.php');
    const w = await openWorld({ fleet: fleetOf([{ id: 1, plugins: { 'a/a.php': MOVE } }]) });
    // The update runs, then the site drops out of the dashboard before the re-read (removed
    // through the REST batch route), so the re-read cannot read it.
    const removeSite1 = async () => {
      const response = await fetch(`${w.sandbox.url}/wp-json/svc/v2/batch`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${w.sandbox.credentials.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ sites: { remove: [1] } }),
      });
      expect(response.status).toBe(200);
    };
    const fs = memoryFs({ '/state': null });
    const path = '/state/journal.jsonl';
    const journal = journalWith({ onResult: removeSite1 }, fs, path);
    const first = await applyPlan(planOf([action]), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 1 },
      journal,
    });
    journal.close();
    expect(first.outcomes).toMatchObject([{ status: 'done', unverified: true }]);
    expect((await w.stats()).updates_run).toMatchObject([{ site_id: 1, count: 1 }]);

    const completed = completedUpdates(readJournal(fs, path));
    expect([...completed]).toEqual([changeKey(action)]);
    const second = await applyPlan(planOf([action]), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 1 },
      holdBack: skipCompleted(completed),
    });
    // Still unconfirmed (the site is still unreadable): marked so, which fails the run (exit 1).
    expect(second.outcomes).toMatchObject([{ status: 'skipped', code: 'ALREADY_DONE', unverified: true }]);
    expect(await abilityCount(w, 'run-updates-v1')).toBe(1);
  });

  it('marks ALREADY_DONE skips unverified when the whole re-read fails', async () => {
    const action = update(1, 'plugin', 'a/a.php');
    const w = await openWorld({
      fleet: fleetOf([{ id: 1, plugins: { 'a/a.php': MOVE } }]),
      faults: [{ kind: 'status', status: 503, ability: 'list-updates-v1' }],
    });
    const result = await applyPlan(planOf([action]), {
      client: w.client(),
      live,
      settings: { safeMode: true, concurrency: 1 },
      holdBack: skipCompleted(new Set([changeKey(action)])),
    });
    expect(result.outcomes).toMatchObject([
      {
        status: 'skipped',
        code: 'ALREADY_DONE',
        unverified: true,
        message: expect.stringContaining('HTTP_ERROR'),
      },
    ]);
    expect(await abilityCount(w, 'run-updates-v1')).toBe(0);
  });
});
