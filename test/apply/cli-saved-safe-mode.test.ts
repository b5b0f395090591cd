import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { run, writesSent } from './cli-helpers.js';
import { startWorld } from './world.js';

const open = closedAfterEach(startWorld);

describe('apply PLANFILE in safe mode', () => {
  it('refuses a saved plan with a high-risk action before the lock, the journal or any call', async () => {
    const w = await open({
      fleet: `sites:\n  - id: 1\n    url: https://core.fleet.test/\n    core: "6.8.1 -> 7.0"\n`,
      config: 'version: 1\nupdates:\n  - name: core\n    sites: [all]\n    kinds: [core]\n    max: major\n',
    });
    // Planned with safe mode off (planning is allowed anyway), applied with it on (the default).
    const planned = await run(w, ['plan', '--out', 'plan.json']);
    expect(planned.code, planned.stderr).toBe(0);
    w.fs.rmSync('/work/svc-gitops.yaml');
    const blocked = await run(w, ['apply', 'plan.json']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('[SAFE_MODE_BLOCKED]');
    expect(await writesSent(w)).toBe(0);
    expect(w.fs.existsSync('/work/.svc-gitops')).toBe(false);
    // The refusal used nothing up: with safe mode off the same file applies.
    const allowed = await run(w, ['apply', 'plan.json'], { env: { SVC_SAFE_MODE: 'false' } });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await writesSent(w)).toBeGreaterThan(0);
  });
});
