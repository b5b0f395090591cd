/**
 * svc-gitops against the real dashboard on MainWP REST v2 only: the abilities unregistered, as
 * MainWP runs before WordPress 6.9 (`real-dashboard.sh abilities unregistered`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { harness, installedVersion, skipReason } from './harness.js';
import { freshWorkspace, type Workspace, writeDesired } from './scenario.js';

/** Site-wide flags: every plugin update of site 1, every theme update of site 2. */
const FLAGS =
  '    - sites: [1]\n      site_flags: { plugins: true }\n    - sites: [2]\n      site_flags: { themes: true }\n';

const CLEAR = FLAGS.replace(/: true/g, ': false');

/** What REST cannot do in the scenario (scenario.ts): set per-slug ignores, unignore the UI's. */
const REST_CANNOT = [
  'cannot-ignore: plugin hello.php',
  'cannot-ignore: theme twentytwentyone',
  'cannot-unignore: per-site ignore of plugin akismet/akismet.php',
  'unmanaged-ignore: global ignore of theme twentytwentyfive',
];

/** The plan's notes, each as its kind and the words up to the item. */
function notes(text: string): string[] {
  return [...text.matchAll(/^ {2}! ([a-z-]+: (?:per-site ignore of |global ignore of )?\S+ \S+)/gm)].map(
    (m) => m[1] as string,
  );
}

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

  it('sets site-wide flags through the site edit route, then re-plans to no changes', async () => {
    writeDesired(ws, FLAGS);
    const r = await ws.run('plan');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 to ignore, 0 to unignore, 0 to update on 2 sites');
    expect(r.stdout).toMatch(/\+ ignore\s+plugin \* on site 1/);
    expect(r.stdout).toMatch(/\+ ignore\s+theme \* on site 2/);
    const applied = await ws.run('apply', '--auto-approve');
    expect(applied.stdout + applied.stderr, applied.stdout + applied.stderr).toContain('2 done, 0 failed');
    const again = await ws.run('plan');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('0 to ignore, 0 to unignore, 0 to update');
    expect(notes(again.stdout)).toEqual(REST_CANNOT);
  });

  it('clears the flags the desired state clears, then re-plans to no changes', async () => {
    writeDesired(ws, CLEAR);
    const r = await ws.run('plan');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout, r.stdout).toContain('0 to ignore, 2 to unignore, 0 to update on 2 sites');
    expect(r.stdout).toMatch(/- unignore plugin \* on site 1/);
    expect(r.stdout).toMatch(/- unignore theme \* on site 2/);
    const applied = await ws.run('apply', '--auto-approve');
    expect(applied.stdout + applied.stderr, applied.stdout + applied.stderr).toContain('2 done, 0 failed');
    const again = await ws.run('plan');
    expect(again.stdout).toContain('0 to ignore, 0 to unignore, 0 to update');
    expect(notes(again.stdout)).toEqual(REST_CANNOT);
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
    // The exact routes, in the namespace found from /wp-json/ (no abilities catalogue to read).
    expect(r.stderr).toContain('GET /wp-json/wp-abilities/v1/abilities (the catalogue)');
    expect(r.stderr).toContain('GET and POST /wp-json/wp-abilities/v1/abilities/mainwp/{ability}/run');
  });
});
