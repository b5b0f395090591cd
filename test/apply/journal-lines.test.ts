import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completedUpdates, lastUnfinishedRun, openJournal, readJournal } from '../../src/apply/journal.js';
import { decodeLines, runStartLine } from '../../src/apply/journal-lines.js';
import { changeKey } from '../../src/apply/keys.js';
import type { Action } from '../../src/types.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { ignore, update } from './builders.js';

/** The compact journal lines read back exactly, and beside the longer lines of older versions. */

const header = {
  type: 'run-start' as const,
  run_id: 'r2',
  at: 't',
  plan_id: 'p',
  dashboard: 'd',
  desired_digest: 'g',
};
const strip = ({ reason: _reason, ...rest }: Action) => rest;

const actions = fc.array(
  fc.oneof(
    fc
      .record({
        site: fc.integer({ min: 1, max: 30 }),
        slug: fc.constantFrom('a/a.php', 'b', 'wordpress', 'astra'),
        wave: fc.option(fc.constantFrom('canary', 'rest'), { nil: undefined }),
        to: fc.constantFrom('1.1', '2.0', ''),
      })
      .map(({ site, slug, wave, to }) =>
        update(site, 'plugin', slug, { to, ...(wave === undefined ? {} : { wave }) }),
      ),
    fc
      .record({ site: fc.integer({ min: 1, max: 30 }), slug: fc.constantFrom('a/a.php', 'b') })
      .map(({ site, slug }) => ignore(site, 'plugin', slug, 'unignore')),
  ),
  { maxLength: 40 },
);

describe('compact journal lines', () => {
  it('read back the run-start actions exactly, whatever fields each has (property)', () => {
    fc.assert(
      fc.property(actions, (list) => {
        const line = JSON.parse(JSON.stringify(runStartLine(header, list.map(strip))));
        const [start] = decodeLines([line]);
        expect(start).toEqual({ ...header, actions: list.map(strip) });
      }),
    );
  });

  it('name actions by index: results and sent windows come back with their change keys', async () => {
    const fs = memoryFs({ '/state': null });
    const journal = openJournal(fs, '/state/j.jsonl');
    const list = [
      update(1, 'plugin', 'a/a.php'),
      update(2, 'plugin', 'a/a.php'),
      ignore(3, 'theme', 'astra'),
    ];
    await journal.append(runStartLine(header, list.map(strip)));
    await journal.append({ type: 'sent', seq: 0, at: 't', calls: [[0, 1], [2]] });
    await journal.append({
      type: 'result',
      seq: 0,
      at: 't',
      outcomes: [
        [0, 'done'],
        [1, 'failed', 'svc_update_failed'],
      ],
    });
    journal.close();
    fs.appendFileSync('/state/j.jsonl', '{"type":"result","seq":1,"at":"t","outco');
    const records = readJournal(fs, '/state/j.jsonl');
    expect(records.filter((r) => r.type === 'sent')).toEqual([
      { type: 'sent', run_id: 'r2', seq: 0, at: 't', actions: [changeKey(list[0]!), changeKey(list[1]!)] },
      { type: 'sent', run_id: 'r2', seq: 1, at: 't', actions: [changeKey(list[2]!)] },
    ]);
    expect([...completedUpdates(records)]).toEqual([changeKey(list[0]!)]);
    // The torn result of call 1 is no answer: that call is in doubt.
    expect(lastUnfinishedRun(records)).toMatchObject({
      runId: 'r2',
      inDoubtCalls: 1,
      actions: list.map((a) => ({ ...a, reason: '' })),
    });
  });

  it('skip a line naming an action its run does not have, or with no run before it', () => {
    const records = decodeLines([
      { type: 'result', seq: 0, at: 't', outcomes: [[0, 'done']] },
      runStartLine(header, [strip(update(1, 'plugin', 'a/a.php'))]),
      { type: 'result', seq: 0, at: 't', outcomes: [[5, 'done']] },
      { type: 'sent', seq: 0, at: 't', calls: [[0], [7]] },
    ]);
    expect(records.map((r) => r.type)).toEqual(['run-start']);
  });

  it('an older run in long lines and a newer one in compact lines read as one journal', () => {
    const old = update(1, 'plugin', 'a/a.php');
    const fresh = update(2, 'plugin', 'b');
    const records = decodeLines([
      {
        type: 'run-start',
        run_id: 'r1',
        at: 't',
        plan_id: 'p',
        dashboard: 'd',
        desired_digest: 'g',
        actions: [strip(old)],
      },
      {
        type: 'sent',
        run_id: 'r1',
        seq: 0,
        at: 't',
        call: { type: 'run-updates', site_ids: [1], items: [] },
      },
      { type: 'result', run_id: 'r1', seq: 0, at: 't', outcomes: [{ key: changeKey(old), status: 'done' }] },
      { type: 'run-end', run_id: 'r1', at: 't', interrupted: true, failed: 0 },
      runStartLine(header, [strip(fresh)]),
      { type: 'sent', seq: 0, at: 't', calls: [[0]] },
      { type: 'result', seq: 0, at: 't', outcomes: [[0, 'done']] },
    ]);
    expect([...completedUpdates(records)].sort()).toEqual([changeKey(old), changeKey(fresh)].sort());
    expect(lastUnfinishedRun(records)).toMatchObject({ runId: 'r2', inDoubtCalls: 0 });
  });
});
