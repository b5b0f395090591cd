import { describe, expect, it } from 'vitest';
import { type ApplyEvent, type ApplyJournal, applyPlan } from '../../src/apply/index.js';
import { completedUpdates, openJournal, readJournal } from '../../src/apply/journal.js';
import { changeKey } from '../../src/apply/keys.js';
import { skipCompleted } from '../../src/apply/subset.js';
import { SvcError } from '../../src/errors.js';
import type { Action } from '../../src/types.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { ignore, planOf, update } from './builders.js';
import { MemoryDashboard } from './memory-client.js';

const live = {
  capabilities: {
    surface: 'abilities' as const,
    canUnignore: true,
    canIgnore: true,
    canIgnoreCore: true,
    queueThreshold: 2,
  },
};

function withPending(dashboard: MemoryDashboard, actions: Action[]): void {
  for (const a of actions) {
    if (a.op === 'update')
      dashboard.pending.push({
        siteId: a.site_id,
        kind: a.kind,
        slug: a.slug,
        name: a.slug,
        from: a.from!,
        to: a.to!,
      });
  }
}

describe('applyPlan', () => {
  it('runs every action once, bounded by the concurrency, and verifies by re-reading', async () => {
    const dashboard = new MemoryDashboard();
    const actions = [
      ignore(1, 'plugin', 'i/i.php'),
      ...Array.from({ length: 9 }, (_, i) => update(i + 1, 'plugin', 'a/a.php')),
    ];
    withPending(dashboard, actions);
    const events: ApplyEvent[] = [];
    const result = await applyPlan(planOf(actions), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 2 },
      onEvent: (e) => events.push(e),
    });
    expect(result.outcomes.map((o) => o.status)).toEqual(Array(10).fill('done'));
    expect(result.calls).toBe(1 + 5);
    expect(dashboard.maxInFlight).toBe(2);
    expect('slugs' in dashboard.calls[0]!).toBe(true);
    expect(events.at(-1)?.type).toBe('finished');
  });

  it('blocks, without calling the dashboard, an ignore the connected surface cannot make', async () => {
    const dashboard = new MemoryDashboard();
    const result = await applyPlan(planOf([ignore(1, 'plugin', 'i/i.php')]), {
      client: dashboard,
      live: { capabilities: { ...live.capabilities, surface: 'rest', canIgnore: false } },
      settings: { safeMode: true, concurrency: 1 },
    });
    expect(result.outcomes).toMatchObject([{ status: 'blocked', code: 'UNSUPPORTED' }]);
    expect(dashboard.calls).toEqual([]);
  });

  it('stops the rollout when a wave crosses its failure threshold; later actions are skipped', async () => {
    const dashboard = new MemoryDashboard();
    const actions = [
      update(1, 'plugin', 'a/a.php', { wave: 'canary' }),
      update(2, 'plugin', 'b/b.php', { wave: 'canary' }),
      update(3, 'plugin', 'a/a.php', { wave: 'rest' }),
    ];
    withPending(dashboard, actions);
    dashboard.failing.add('1|plugin|a/a.php');
    const result = await applyPlan(planOf(actions), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 1 },
      maxFailures: () => 0,
    });
    expect(result.outcomes.map((o) => [o.status, o.code])).toEqual([
      ['failed', 'svc_update_failed'],
      ['skipped', 'WAVE_STOPPED'],
      ['skipped', 'WAVE_STOPPED'],
    ]);
  });

  it('on abort finishes the call in flight, skips the rest and reports interrupted', async () => {
    const dashboard = new MemoryDashboard();
    const actions = [update(1, 'plugin', 'a/a.php'), update(2, 'theme', 't'), update(3, 'core', 'wordpress')];
    withPending(dashboard, actions);
    const controller = new AbortController();
    dashboard.onCall = () => controller.abort();
    const result = await applyPlan(planOf(actions), {
      client: dashboard,
      live,
      settings: { safeMode: false, concurrency: 1 },
      signal: controller.signal,
    });
    expect(result.interrupted).toBe(true);
    expect(result.outcomes.map((o) => o.status)).toEqual(['done', 'skipped', 'skipped']);
    expect(dashboard.calls).toHaveLength(1);
  });

  it('turns an ignore the dashboard did not keep into NOT_PERSISTED, and a failed call that took effect into done', async () => {
    const dashboard = new MemoryDashboard();
    dashboard.forgetIgnores = true;
    const result = await applyPlan(planOf([ignore(1, 'plugin', 'a/a.php')]), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 1 },
    });
    expect(result.outcomes[0]).toMatchObject({ status: 'failed', code: 'NOT_PERSISTED' });

    const second = new MemoryDashboard();
    const broken = [update(999, 'plugin', 'a/a.php')];
    const outcome = await applyPlan(planOf(broken), {
      client: second,
      live,
      settings: { safeMode: true, concurrency: 1 },
    });
    // The call failed before reaching the store and nothing was pending: the re-read shows no pending update.
    expect(outcome.outcomes[0]).toMatchObject({ status: 'done' });
    expect(outcome.outcomes[0]!.message).toMatch(/CONNECTION_FAILED/);
  });

  it('refuses high-risk actions in safe mode before any call, and holds back what the caller says', async () => {
    const dashboard = new MemoryDashboard();
    const actions = [update(1, 'core', 'wordpress'), update(2, 'plugin', 'a/a.php')];
    await expect(
      applyPlan(planOf(actions), { client: dashboard, live, settings: { safeMode: true, concurrency: 1 } }),
    ).rejects.toMatchObject({ code: 'SAFE_MODE_BLOCKED' });
    expect(dashboard.calls).toHaveLength(0);
    withPending(dashboard, actions);
    const result = await applyPlan(planOf(actions), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 1 },
      holdBack: (a) =>
        a.kind === 'core' ? { status: 'blocked', code: 'UNREVIEWED', message: 'not reviewed' } : undefined,
    });
    expect(result.outcomes.map((o) => o.status)).toEqual(['blocked', 'done']);
  });
});

describe('applyPlan after a failure no call can get past', () => {
  it('skips the rest once the session data budget is spent', async () => {
    const dashboard = new MemoryDashboard();
    const actions = [update(1, 'plugin', 'a/a.php'), update(2, 'theme', 't'), update(3, 'plugin', 'b/b.php')];
    withPending(dashboard, actions);
    dashboard.runUpdates = async () => {
      dashboard.calls.push({ siteIds: [], items: [] });
      throw new SvcError('RESOURCE_EXHAUSTED', 'Session data limit reached (51 of 50 MiB)');
    };
    const result = await applyPlan(planOf(actions), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 1 },
    });
    expect(result.outcomes.map((o) => [o.status, o.code])).toEqual([
      ['failed', 'RESOURCE_EXHAUSTED'],
      ['skipped', 'RESOURCE_EXHAUSTED'],
      ['skipped', 'RESOURCE_EXHAUSTED'],
    ]);
    expect(dashboard.calls).toHaveLength(1);
  });
});

describe('applyPlan when a stop comes while a call waits for its journal line', () => {
  // Twelve calls (one per site); the second window of `sent` lines takes a while to be durable.
  const twelve = () => Array.from({ length: 12 }, (_, i) => update(i + 1, 'plugin', `p${i + 1}/p.php`));
  const slowSecondWindow = (whileWriting: () => void = () => {}): ApplyJournal => {
    let windows = 0;
    return {
      append: async () => {},
      appendAll: async (records) => {
        if (!records.some((r) => r.type === 'sent') || ++windows !== 2) return;
        whileWriting();
        await new Promise((resolve) => setTimeout(resolve, 30));
      },
      close() {},
    };
  };

  it('sends no further update of a wave that crossed its threshold meanwhile', async () => {
    const dashboard = new MemoryDashboard();
    const actions = twelve().map((a) => ({ ...a, wave: 'canary' }));
    withPending(dashboard, actions);
    dashboard.failing.add('8|plugin|p8/p.php'); // the last call of the first window
    const result = await applyPlan(planOf(actions), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 2 },
      maxFailures: () => 0,
      journal: slowSecondWindow(),
    });
    expect(dashboard.calls).toHaveLength(8);
    expect(result.outcomes.slice(8).map((o) => [o.status, o.code])).toEqual(
      Array(4).fill(['skipped', 'WAVE_STOPPED']),
    );
  });

  it('sends nothing after an interrupt that came meanwhile', async () => {
    const dashboard = new MemoryDashboard();
    const actions = twelve();
    withPending(dashboard, actions);
    const controller = new AbortController();
    const result = await applyPlan(planOf(actions), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 2 },
      signal: controller.signal,
      journal: slowSecondWindow(() => controller.abort()),
    });
    expect(result.interrupted).toBe(true);
    expect(dashboard.calls).toHaveLength(8);
    expect(result.outcomes.slice(8).map((o) => o.status)).toEqual(Array(4).fill('skipped'));
  });
});

describe('applyPlan when the re-read misses a site', () => {
  it('keeps the journal unsettled: an update reported done there is never sent again', async () => {
    const fs = memoryFs({ '/state': null });
    const path = '/state/journal.jsonl';
    const dashboard = new MemoryDashboard();
    const action = update(1, 'plugin', 'a/a.php');
    withPending(dashboard, [action]);
    // The update runs, but the re-read cannot read site 1 (its child does not answer), and the
    // dashboard's listing keeps showing the update for a while.
    const stale = [...dashboard.pending];
    const readLive = dashboard.readLive.bind(dashboard);
    dashboard.readLive = async () => ({
      ...(await readLive()),
      pending: stale,
      unreadable: [{ siteId: 1, url: action.site_url, code: 'child_unreachable', message: 'no answer' }],
    });
    const journal = openJournal(fs, path);
    const first = await applyPlan(planOf([action]), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 1 },
      journal,
    });
    journal.close();
    expect(first.outcomes).toMatchObject([{ status: 'done', unverified: true }]);

    const completed = completedUpdates(readJournal(fs, path));
    expect([...completed]).toEqual([changeKey(action)]);
    const second = await applyPlan(planOf([action]), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 1 },
      holdBack: skipCompleted(completed),
    });
    // Still unconfirmed (the site is still unreadable): marked so, which fails the run (exit 1).
    expect(second.outcomes).toMatchObject([{ status: 'skipped', code: 'ALREADY_DONE', unverified: true }]);
    expect(dashboard.calls).toHaveLength(1);
  });

  it('marks ALREADY_DONE skips unverified when the whole re-read fails', async () => {
    const dashboard = new MemoryDashboard();
    const action = update(1, 'plugin', 'a/a.php');
    withPending(dashboard, [action]);
    dashboard.readLive = async () => {
      throw new SvcError('TIMEOUT', 'the re-read timed out');
    };
    const result = await applyPlan(planOf([action]), {
      client: dashboard,
      live,
      settings: { safeMode: true, concurrency: 1 },
      holdBack: skipCompleted(new Set([changeKey(action)])),
    });
    expect(result.outcomes).toMatchObject([
      {
        status: 'skipped',
        code: 'ALREADY_DONE',
        unverified: true,
        message: expect.stringContaining('TIMEOUT'),
      },
    ]);
    expect(dashboard.calls).toHaveLength(0);
  });
});
