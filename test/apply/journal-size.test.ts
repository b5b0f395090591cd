import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/index.js';
import { openJournal, readJournal } from '../../src/apply/journal.js';
import { changeKey } from '../../src/apply/keys.js';
import { generateFleet } from '../../src/sandbox/index.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { startWorld } from './world.js';

const openWorld = closedAfterEach(startWorld);

/**
 * The journal records what recovery needs: per call the indices of its actions and per action
 * its outcome, and each approved action once without the planner's prose, each distinct value
 * once. A fleet's apply wrote 31 MB (about 300 bytes an action); here the bytes per action are
 * bounded, and what is read back is exactly what was run.
 */
describe('apply journal size', () => {
  it('stays proportionate: no reasons, no repeated keys or URLs, under 100 bytes an action', async () => {
    // A generated fleet: 200 sites, about 6 pending and 3 ignored updates each; ignores and updates.
    const world = await openWorld({
      fleet: generateFleet({ sites: 200, pendingPerSite: 6, ignoredPerSite: 3, seed: 42 }),
      config: `version: 1
ignores:
  rules:
    - {sites: [all], plugins: [jetpack/jetpack.php]}
updates:
  - {name: routine, sites: [all], kinds: [plugins, themes, translations], max: minor}
`,
    });
    const { plan, live } = await world.plan();
    expect(plan.actions.length).toBeGreaterThan(500);
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
    expect(text).not.toContain('"key"');
    for (const url of new Set(plan.actions.map((a) => a.site_url))) expect(text.split(url)).toHaveLength(2);
    expect(text.length / plan.actions.length).toBeLessThan(100);
    // Read back: every action as planned (less its reason), every outcome under its change key.
    const records = readJournal(fs, '/state/journal.jsonl');
    const start = records.find((r) => r.type === 'run-start')!;
    expect(start.type === 'run-start' && start.actions).toEqual(
      plan.actions.map(({ reason: _reason, ...rest }) => rest),
    );
    const outcomes = records.flatMap((r) => (r.type === 'result' ? r.outcomes : []));
    expect(outcomes.map((o) => o.key).sort()).toEqual(plan.actions.map(changeKey).sort());
    expect(outcomes.every((o) => o.status === 'done')).toBe(true);
    expect(records.filter((r) => r.type === 'sent')).toHaveLength(result.calls);
  });
});
