import { describe, expect, it } from 'vitest';
import {
  completedUpdates,
  type JournalRecord,
  lastUnfinishedRun,
  openJournal,
  readJournal,
} from '../../src/apply/journal.js';
import { changeKey } from '../../src/apply/keys.js';
import { acquireLock } from '../../src/apply/lock.js';
import { isPlanUsed, markPlanUsed } from '../../src/apply/used-plans.js';
import { isSvcError } from '../../src/errors.js';
import type { Action } from '../../src/types.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { update } from './builders.js';

const stateFs = () => memoryFs({ '/state/used-plans': null });

/** Journal records of run r1 with fixed stamps: a test gives only what it varies. */
const runStart = (actions: Action[]): JournalRecord => ({
  type: 'run-start',
  run_id: 'r1',
  at: 't',
  plan_id: 'p',
  dashboard: 'd',
  desired_digest: 'g',
  actions,
});
const sent = (seq: number, siteId: number, key: string): JournalRecord => ({
  type: 'sent',
  run_id: 'r1',
  seq,
  at: 't',
  call: { type: 'run-updates', site_ids: [siteId], items: [] },
  actions: [key],
});

describe('apply lock', () => {
  const holder = (pid: number) => ({ pid, host: 'h1', started_at: `2026-01-01T00:00:0${pid % 10}Z` });

  it('refuses a second apply and names the holder', () => {
    const fs = stateFs();
    acquireLock({ fs, path: '/state/a.lock', holder: holder(11), isAlive: () => true });
    let error: unknown;
    try {
      acquireLock({ fs, path: '/state/a.lock', holder: holder(12), isAlive: () => true });
    } catch (e) {
      error = e;
    }
    expect(isSvcError(error) && error.code).toBe('LOCKED');
    expect((error as Error).message).toContain('pid 11 on h1');
  });

  it('takes over the lock of a dead process with a warning, and releases only its own', () => {
    const fs = stateFs();
    acquireLock({ fs, path: '/state/a.lock', holder: holder(11), isAlive: () => true });
    const warnings: string[] = [];
    const lock = acquireLock({
      fs,
      path: '/state/a.lock',
      holder: holder(12),
      isAlive: (pid) => pid !== 11,
      onWarning: (w) => warnings.push(w),
    });
    expect(warnings[0]).toMatch(/stale apply lock of pid 11/);
    expect(JSON.parse(fs.readFileSync('/state/a.lock', 'utf8') as string).pid).toBe(12);
    lock.release();
    expect(fs.existsSync('/state/a.lock')).toBe(false);
  });

  it('lets only one of two applies take over the same stale lock', () => {
    const fs = stateFs();
    acquireLock({ fs, path: '/state/a.lock', holder: holder(11), isAlive: () => true }); // then killed
    let first: ReturnType<typeof acquireLock> | undefined;
    // The second apply has judged pid 11 dead; while it looks, the first one takes over.
    const second = () =>
      acquireLock({
        fs,
        path: '/state/a.lock',
        holder: holder(13),
        isAlive: (pid) => {
          first ??= acquireLock({ fs, path: '/state/a.lock', holder: holder(12), isAlive: () => false });
          return pid !== 11 && pid !== 12;
        },
      });
    expect(second).toThrow(/another apply is running/);
    expect(first).toBeDefined();
    expect(JSON.parse(fs.readFileSync('/state/a.lock', 'utf8') as string).pid).toBe(12);
    expect(fs.existsSync('/state/a.lock.takeover')).toBe(false);
  });

  it('lets only one of two applies take over the same torn lock', () => {
    const fs = stateFs();
    // A lock torn by a kill while it was written, long ago.
    fs.writeFileSync('/state/a.lock', '{"pid":');
    fs.utimesSync('/state/a.lock', new Date(0), new Date(0));
    // Both applies judged it stale. The first took it over a moment before the second looks
    // again: it removed the torn lock and has just created its own, not yet written.
    const racing = new Proxy(fs, {
      get(target, name, receiver) {
        if (name !== 'openSync') return Reflect.get(target, name, receiver);
        return (path: string, flags: string, mode?: number) => {
          if (path === '/state/a.lock.takeover' && !target.existsSync('/state/first')) {
            target.writeFileSync('/state/first', '');
            target.rmSync('/state/a.lock');
            target.writeFileSync('/state/a.lock', '');
          }
          return target.openSync(path, flags, mode);
        };
      },
    });
    expect(() =>
      acquireLock({ fs: racing, path: '/state/a.lock', holder: holder(13), isAlive: () => false }),
    ).toThrow(/another apply is running/);
    expect(fs.existsSync('/state/a.lock')).toBe(true);
    expect(fs.readFileSync('/state/a.lock', 'utf8')).toBe(''); // still the first one's lock
  });

  it('names an unreadable fresh lock as such, not as a holder "pid undefined"', () => {
    const fs = stateFs();
    fs.writeFileSync('/state/a.lock', ''); // another apply created it a moment ago
    let error: unknown;
    try {
      acquireLock({ fs, path: '/state/a.lock', holder: holder(12), isAlive: () => false });
    } catch (e) {
      error = e;
    }
    expect(isSvcError(error) && error.code).toBe('LOCKED');
    expect((error as Error).message).not.toContain('undefined');
    expect((error as Error).message).toContain('/state/a.lock');
  });

  it('leaves no lock behind when its holder line cannot be written', () => {
    const fs = stateFs();
    const fullDisk = new Proxy(fs, {
      get(target, name, receiver) {
        if (name === 'writeSync')
          return () => {
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          };
        return Reflect.get(target, name, receiver);
      },
    });
    expect(() => acquireLock({ fs: fullDisk, path: '/state/a.lock', holder: holder(12) })).toThrow(
      /cannot create the apply lock \/state\/a\.lock/,
    );
    expect(fs.existsSync('/state/a.lock')).toBe(false);
    // The next apply is not kept waiting by a lock nobody holds.
    acquireLock({ fs, path: '/state/a.lock', holder: holder(13) }).release();
  });

  it('never takes over a lock held on another host', () => {
    const fs = stateFs();
    acquireLock({ fs, path: '/state/a.lock', holder: { ...holder(11), host: 'other' }, isAlive: () => true });
    expect(() =>
      acquireLock({ fs, path: '/state/a.lock', holder: holder(12), isAlive: () => false }),
    ).toThrow(/another apply/);
  });
});

describe('used plans', () => {
  it('marks a plan used once; the second mark is PREVIEW_REQUIRED', () => {
    const fs = stateFs();
    const id = 'c'.repeat(64);
    expect(isPlanUsed(fs, '/state/used-plans', id)).toBe(false);
    markPlanUsed(fs, '/state/used-plans', id, new Date(0));
    expect(isPlanUsed(fs, '/state/used-plans', id)).toBe(true);
    expect(() => markPlanUsed(fs, '/state/used-plans', id, new Date(0))).toThrow(/already applied/);
  });
});

describe('journal', () => {
  it('appends records, survives a torn last line, and finds the unfinished run and completed updates', async () => {
    const fs = stateFs();
    const journal = openJournal(fs, '/state/j.jsonl');
    const a = update(1, 'plugin', 'a/a.php');
    const b = update(2, 'plugin', 'a/a.php');
    await journal.append(runStart([a, b]));
    await journal.append(sent(0, 1, changeKey(a)));
    await journal.append({
      type: 'result',
      run_id: 'r1',
      seq: 0,
      at: 't',
      outcomes: [{ key: changeKey(a), status: 'done' }],
    });
    await journal.append(sent(1, 2, changeKey(b)));
    journal.close();
    fs.appendFileSync('/state/j.jsonl', '{"type":"result","run_id":"r1","se');
    const records = readJournal(fs, '/state/j.jsonl');
    expect(records).toHaveLength(4);
    expect([...completedUpdates(records)]).toEqual([changeKey(a)]);
    const unfinished = lastUnfinishedRun(records);
    expect(unfinished).toMatchObject({ runId: 'r1', inDoubtCalls: 1, planId: 'p' });
    expect(readJournal(fs, '/state/missing.jsonl')).toEqual([]);
  });

  it('forgets completed updates once a run ends cleanly with its outcomes re-read', async () => {
    const fs = stateFs();
    const journal = openJournal(fs, '/state/j.jsonl');
    const a = update(1, 'plugin', 'a/a.php');
    const done = (runId: string) => ({
      type: 'result' as const,
      run_id: runId,
      seq: 0,
      at: 't',
      outcomes: [{ key: changeKey(a), status: 'done' as const }],
    });
    const end = (runId: string, verified: boolean) => ({
      type: 'run-end' as const,
      run_id: runId,
      at: 't',
      interrupted: false,
      failed: 0,
      verified,
    });
    await journal.append(done('r1'));
    await journal.append(end('r1', false)); // its re-read failed: r1's report still stands
    const unconfirmed = readJournal(fs, '/state/j.jsonl');
    expect([...completedUpdates(unconfirmed)]).toEqual([changeKey(a)]);
    await journal.append(end('r2', true)); // a later run re-read the sites: live decides now
    journal.close();
    expect([...completedUpdates(readJournal(fs, '/state/j.jsonl'))]).toEqual([]);
  });

  it('a run that recorded a clean end is not unfinished', async () => {
    const fs = stateFs();
    const journal = openJournal(fs, '/state/j.jsonl');
    await journal.append(runStart([]));
    await journal.append({ type: 'run-end', run_id: 'r1', at: 't', interrupted: false, failed: 0 });
    journal.close();
    expect(lastUnfinishedRun(readJournal(fs, '/state/j.jsonl'))).toBeUndefined();
  });
});
