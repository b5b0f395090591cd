/**
 * No secret of the harness is a process argument (`ps` shows every argument to every user): the
 * REST key, the application password and the passwords of the database and the sites' admins
 * reach curl, mariadb and PHP through files or standard input. Every program the harness starts
 * through PATH is wrapped by a shim that records its arguments, then runs the real program.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE, SCRIPT, skipReason } from './harness.js';

const PROGRAMS = [
  'curl',
  'php',
  'mariadb',
  'mariadb-admin',
  'mariadbd',
  'mariadb-install-db',
  'timeout',
  'setsid',
];

/** A PATH folder of shims that append their argv (NUL-separated, one line each) to `log`. */
function shims(log: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-real-shims-'));
  for (const name of PROGRAMS) {
    const real = execFileSync('bash', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    const file = join(dir, name);
    writeFileSync(
      file,
      `#!/bin/bash\n{ printf '%s\\0' ${name} "$@"; echo; } >>'${log}'\nexec '${real}' "$@"\n`,
    );
    chmodSync(file, 0o755);
  }
  return dir;
}

/** Every secret the harness keeps in its state folder, as the harness stores them. */
function secrets(): string[] {
  const state = join(BASE, 'state');
  const found: string[] = [];
  for (const name of readdirSync(state)) {
    const text = readFileSync(join(state, name), 'utf8').trim();
    if (name.endsWith('.secret')) found.push(text);
    if (name === 'rest-key.json') {
      const key = JSON.parse(text) as Record<string, string>;
      found.push(key.consumer_secret as string, (key.consumer_secret as string).slice(3));
    }
    if (name === 'app-password.json') {
      const password = (JSON.parse(text) as Record<string, string>).password as string;
      found.push(password, password.replace(/ /g, ''));
    }
  }
  return found.filter((secret) => secret.length >= 8);
}

describe.skipIf(skipReason())('real dashboard harness, secrets', () => {
  it('passes no secret as a process argument', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'svc-real-argv-')), 'argv.log');
    writeFileSync(log, '');
    const env = { ...process.env, SVC_REAL_BASE: BASE, PATH: `${shims(log)}:${process.env.PATH}` };
    // `up` on a running rig: the database user, each site's install, the credentials, the REST
    // site listing, the updates and the sync; then the REST writes of poison-ignore.
    for (const args of [['up'], ['poison-ignore', '1'], ['unpoison', '1'], ['status']])
      execFileSync('bash', [SCRIPT, ...args], { env, timeout: 180_000, stdio: 'ignore' });
    const argv = readFileSync(log, 'utf8');
    const known = secrets();
    expect(known.length).toBeGreaterThanOrEqual(5);
    // The shims saw the harness at work: curl with the REST API, mariadb, PHP.
    expect(argv).toContain('mainwp/v2/sites');
    expect(argv).toMatch(/^mariadb\0/m);
    expect(argv).toMatch(/wpctl\.php\0[^\n]*\0install\0/);
    for (const secret of known) expect(argv.includes(secret), 'a secret in a process argument').toBe(false);
  });
});
