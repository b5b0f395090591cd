/**
 * A poisoned ignore on the real dashboard (`real-dashboard.sh poison-ignore 2`: the REST v2
 * per-slug ignore MainWP 6.1.2 stores under slug 0, after which list-ignored-updates-v1 answers
 * 500 ability_invalid_output): plan still plans sites 1 and 3, and site 2 too except what the
 * broken entry may concern, naming the site and the entry.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { harness, skipReason } from './harness.js';
import { freshWorkspace, writeDesired } from './scenario.js';

describe.skipIf(skipReason())('real dashboard, a poisoned ignored listing', () => {
  afterAll(() => {
    if (!skipReason()) {
      harness(['unpoison', '2']);
      harness(['abilities', 'on']);
    }
  });

  it('abilities: plans site 2 kind by kind, withholding only its plugins', async () => {
    const ws = freshWorkspace();
    harness(['poison-ignore', '2']);
    writeDesired(ws);
    const r = await ws.run('plan');
    expect(r.stderr).not.toContain('HTTP_ERROR');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'ignored_entry_broken: its plugin ignores cannot be listed: entry 0 has a numeric slug',
    );
    expect(r.stdout).toContain('remove that ignore in the dashboard UI');
    // Site 2 (named host:port in the desired state) keeps its theme ignore and theme update;
    // its akismet update waits for the broken entry to go.
    expect(r.stdout).toMatch(/site 2 http:\/\/127\.0\.0\.1:\d+\/\n\s+\+ ignore\s+theme twentytwentyone/);
    expect(r.stdout).toContain('(1 withheld: update plugin akismet/akismet.php)');
    expect(r.stdout).not.toMatch(/could not be read/);
    // Sites 1 and 3 as usual (hello.php ignored on site 1).
    expect(r.stdout).toContain('+ ignore   plugin hello.php on site 1');
  });

  it('REST only: reads the entry itself and withholds just the item it names', async () => {
    const ws = freshWorkspace();
    harness(['poison-ignore', '2']);
    harness(['abilities', 'unregistered']);
    writeDesired(ws);
    const r = await ws.run('plan');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('(rest)');
    expect(r.stdout).not.toMatch(/plugin 0\b/);
    expect(r.stdout).toContain('its plugin ignores hold an entry under slug 0 named "akismet/akismet.php"');
    expect(r.stdout).toContain('(1 withheld: update plugin akismet/akismet.php)');
    // Site 2's other facts are read: its theme ignore is judged (REST cannot set it) as on site 1.
    expect(r.stdout).toMatch(/cannot-ignore: theme twentytwentyone [^\n]*\[site 2\]/);
    expect(r.stdout).toContain('0 to ignore, 0 to unignore, 4 to update on 2 sites');
  });
});
