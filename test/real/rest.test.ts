/**
 * svc-gitops against the real dashboard on MainWP REST v2 only: the abilities unregistered, as
 * MainWP runs before WordPress 6.9 (`real-dashboard.sh abilities unregistered`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { harness, installedVersion, skipReason } from './harness.js';
import { freshWorkspace, type Workspace, writeDesired } from './scenario.js';

describe.skipIf(skipReason())('real dashboard, REST API v2 only', () => {
  let ws: Workspace;
  afterAll(() => {
    if (!skipReason()) harness(['abilities', 'on']);
  });

  it('plans from REST: the updates, and notes for what REST cannot ignore or unignore', async () => {
    ws = freshWorkspace();
    harness(['abilities', 'unregistered']);
    writeDesired(ws);
    const r = await ws.run('plan');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(rest)');
    expect(r.stdout).toContain('0 to ignore, 0 to unignore, 5 to update on 3 sites');
    expect(r.stdout).toContain('cannot-ignore: plugin hello.php');
    expect(r.stdout).toContain('cannot-unignore: per-site ignore of plugin akismet/akismet.php');
    // MainWP's per-site REST listing omits the global ignores; the client adds them from the global one.
    expect(r.stdout).toContain('global ignore of theme twentytwentyfive');
  });

  it('applies the updates through the per-kind routes and confirms them (a sync of the touched sites)', async () => {
    const r = await ws.run('apply', '--auto-approve');
    expect(r.stdout + r.stderr).toContain('5 done, 0 failed');
    expect(r.code).toBe(0);
    expect(installedVersion('child2', 'plugins/akismet/akismet.php')).toBe('3.1.6');
    expect(installedVersion('child3', 'plugins/hello-dolly/hello.php')).toBe('2.0.0');
  });

  it('re-plans with no updates left, only what REST cannot do', async () => {
    const r = await ws.run('plan');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0 to ignore, 0 to unignore, 0 to update');
  });

  it.each([
    ['as MainWP shows it (<secret>==<key>)', (token: string) => token],
    ['as the prefixed pair (cs_…==ck_…)', (token: string) => `cs_${token.replace('==', '==ck_')}`],
  ])('works with the REST token alone, %s', async (_form, shape) => {
    const { SVC_USER: _user, SVC_APP_PASSWORD: _password, ...tokenOnly } = ws.env;
    expect(tokenOnly.SVC_TOKEN).toMatch(/^[0-9a-f]+==[0-9a-f]+$/);
    const r = await cli(['plan'], {
      env: { ...tokenOnly, SVC_TOKEN: shape(tokenOnly.SVC_TOKEN as string) },
      cwd: ws.dir,
    });
    expect(r.stderr).not.toMatch(/error/);
    expect(r.stdout).toContain('0 to update');
    expect(r.code).toBe(0);
  });

  it('with the abilities routes blocked (still registered), says what to unblock', async () => {
    harness(['abilities', 'hidden']);
    const r = await ws.run('plan');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('ability_invalid_input');
    expect(r.stderr).toContain('Allow /wp-json/wp-abilities/v1/ through the security plugin or proxy');
  });
});
