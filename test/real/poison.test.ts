/**
 * A poisoned ignore on the real dashboard (`real-dashboard.sh poison-ignore 2`: the REST v2
 * per-slug ignore MainWP 6.1.2 stores under slug 0, after which list-ignored-updates-v1 answers
 * 500 ability_invalid_output): plan still plans sites 1 and 3 and names site 2.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { harness, skipReason } from './harness.js';
import { freshWorkspace, writeDesired } from './scenario.js';

describe.skipIf(skipReason())('real dashboard, a poisoned ignored listing', () => {
  afterAll(() => {
    if (!skipReason()) harness(['unpoison', '2']);
  });

  it('plans the readable sites and names the broken one, planning nothing on it', async () => {
    const ws = freshWorkspace();
    harness(['poison-ignore', '2']);
    writeDesired(ws);
    const r = await ws.run('plan');
    expect(r.stderr).not.toContain('HTTP_ERROR');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ignored_entry_broken');
    expect(r.stdout).toContain('slug 0');
    // Site 2's actions are withheld; sites 1 and 3 keep theirs (hello.php ignored on site 1).
    expect(r.stdout).toContain('+ ignore   plugin hello.php on site 1');
    expect(r.stdout).not.toMatch(/on site 2\b/);
  });
});
