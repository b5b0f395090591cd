import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/index.js';
import { openJournal, readJournal } from '../../src/apply/journal.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { startWorld } from './world.js';

const openWorld = closedAfterEach(startWorld);

/**
 * The journal records what recovery needs: per call what was sent and per action its key and
 * outcome, and each approved action once without the planner's prose. A fleet's apply wrote
 * 31 MB; here the bytes per action are bounded.
 */
describe('apply journal size', () => {
  it('stays proportionate: no reasons, no per-action keys on sent lines, under 500 bytes an action', async () => {
    const world = await openWorld();
    const { plan, live } = await world.plan();
    const fs = memoryFs({ '/state': null });
    const journal = openJournal(fs, '/state/journal.jsonl');
    const result = await applyPlan(plan, {
      client: world.client(),
      live,
      settings: { safeMode: false, concurrency: 4 },
      journal,
    });
    journal.close();
    expect(result.outcomes.every((o) => o.status === 'done')).toBe(true);
    const text = fs.readFileSync('/state/journal.jsonl', 'utf8') as string;
    const records = readJournal(fs, '/state/journal.jsonl');
    const start = records.find((r) => r.type === 'run-start')!;
    expect(start.type === 'run-start' && start.actions.some((a) => 'reason' in a)).toBe(false);
    expect(records.filter((r) => r.type === 'sent').some((r) => 'actions' in r)).toBe(false);
    expect(text.length / plan.actions.length).toBeLessThan(500);
  });
});
