/**
 * svc-gitops against a real MainWP 6.1.2 dashboard on WordPress 6.9.1 through the abilities API
 * (`npm run test:real`; scripts/real-dashboard/ stands it up).
 */
import { describe, expect, it } from 'vitest';
import { installedVersion, skipReason } from './harness.js';
import { freshWorkspace, type Workspace, writeDesired } from './scenario.js';

describe.skipIf(skipReason())('real dashboard, abilities API', () => {
  let ws: Workspace;

  it('finds the namespace (mainwp) itself: no SVC_NAMESPACE is set', () => {
    ws = freshWorkspace();
    expect(ws.env.SVC_NAMESPACE).toBeUndefined();
  });

  it('imports the per-site ignores the UI set, leaving the global one out', async () => {
    const r = await ws.run('import');
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/- sites:\n\s+- 3\n\s+plugins:\n\s+- akismet\/akismet\.php/);
    expect(r.stdout).not.toContain('twentytwentyfive');
  });

  it('validates and plans: ignores, the unignore, patch and major updates, the global note', async () => {
    writeDesired(ws);
    expect((await ws.run('validate')).code).toBe(0);
    const r = await ws.run('plan');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 to ignore, 1 to unignore, 5 to update on 3 sites');
    expect(r.stdout).toContain('+ ignore   plugin hello.php on site 1');
    expect(r.stdout).toContain('- unignore plugin akismet/akismet.php on site 3');
    expect(r.stdout).toMatch(/update\s+plugin hello\.php 1\.6 → 2\.0\.0 \[high risk\] on site 3/);
    expect(r.stdout).toContain('global ignore of theme twentytwentyfive');
    expect(r.stderr).toContain('(abilities)');
  });

  it('applies with safe mode off, and the updates are really installed on the children', async () => {
    const r = await ws.run('apply', '--auto-approve');
    expect(r.stdout + r.stderr).toContain('Apply complete: 8 done, 0 failed');
    expect(r.code).toBe(0);
    expect(installedVersion('child1', 'plugins/akismet/akismet.php')).toBe('3.1.6');
    expect(installedVersion('child3', 'plugins/hello-dolly/hello.php')).toBe('2.0.0');
    expect(installedVersion('child3', 'themes/twentytwentyone/style.css')).toBe('1.0.1');
    // Ignored by the desired state: never updated.
    expect(installedVersion('child1', 'plugins/hello.php')).toBe('1.6');
  });

  it('re-plans to no changes once the update the unignore revealed is applied too', async () => {
    const unignored = await ws.run('plan');
    expect(unignored.stdout).toContain('1 to update on 1 site');
    expect((await ws.run('apply', '--auto-approve')).code).toBe(0);
    expect(installedVersion('child3', 'plugins/akismet/akismet.php')).toBe('3.1.6');
    const r = await ws.run('plan');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No changes');
  });
});
