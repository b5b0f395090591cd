import { describe, expect, it } from 'vitest';
import { lastUnfinishedRun, readJournal } from '../../src/apply/journal.js';
import { statePaths } from '../../src/apply/state-dir.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { run, writesSent } from './cli-helpers.js';
import { maxRunsPerUpdate, startWorld } from './world.js';

/** SIGINT (ctx.signal) during apply: in-flight calls finish, the journal is written, exit 130. */

const openWorld = closedAfterEach(startWorld);

describe('svc-gitops apply interrupted', () => {
  it('exits 130 with the rest skipped; --resume finishes it without repeating an update', async () => {
    const world = await openWorld();
    const controller = new AbortController();
    const memory = world.fs;
    let results = 0;
    // A deterministic interruption point: SIGINT right after the second call's answer is journalled.
    const fs = new Proxy(memory, {
      get(target, property, receiver) {
        if (property === 'writeSync') {
          return (fd: number, data: string) => {
            if (typeof data === 'string' && data.includes('"type":"result"') && ++results === 2) {
              controller.abort(new Error('SIGINT'));
            }
            return target.writeSync(fd, data);
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const interrupted = await run(world, ['apply', '--auto-approve'], {
      signal: controller.signal,
      fs,
      env: { SVC_CONCURRENCY: '1' },
    });
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain('interrupted');
    expect(interrupted.stdout).toContain('Apply interrupted');
    expect(interrupted.stdout).toMatch(/skipped \(INTERRUPTED\): \d+/);
    const sentBefore = await writesSent(world);
    expect(sentBefore).toBeGreaterThan(0);
    // A clean stop leaves nothing in doubt: every announced call has a result (done or skipped).
    const journal = statePaths('/work/.svc-gitops', world.sandbox.url).journal;
    const unfinished = lastUnfinishedRun(readJournal(world.fs, journal));
    expect(unfinished?.inDoubtCalls).toBe(0);
    expect(unfinished?.actions.length).toBeGreaterThan(sentBefore);

    const resumed = await run(world, ['apply', '--resume']);
    expect(resumed.stderr).not.toContain('error');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('approved by resume');
    expect((await world.plan()).plan.actions).toEqual([]);
    expect(maxRunsPerUpdate(await world.stats())).toBe(1);

    const nothing = await run(world, ['apply', '--resume']);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('no interrupted apply to resume');
  });
});
