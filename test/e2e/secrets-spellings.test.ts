import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../../scripts/soak/fault-proxy.js';
import { cli } from '../helpers/cli.js';
import { type SecretsWorld, startSecretsWorld } from './secrets-world.js';

/**
 * Issue 21, finding 6: a dashboard that quotes the application password back in spellings the
 * mask did not know (PHP's urlencode with `+` for spaces, base64 of the password alone, upper
 * case, `&#32;` entities, hex, a 9-character prefix) in every site and item name. Those names travel
 * into plans, saved plans, apply reports, the journal, the step summary and the comment posted to
 * GitHub; no spelling may arrive in any of them.
 */
const PASSWORD = 'aB3d 7QpX zK3w mB9d Lq2W tT4v';
const SPELLINGS: ReadonlyArray<[string, string]> = [
  ['urlencode (+ for spaces)', PASSWORD.replaceAll(' ', '+')],
  ['base64 of the password alone', Buffer.from(PASSWORD).toString('base64')],
  ['upper case', PASSWORD.toUpperCase()],
  ['&#32; entities', PASSWORD.replaceAll(' ', '&#32;')],
  ['hex', Buffer.from(PASSWORD).toString('hex')],
  ['a 9-character prefix', PASSWORD.slice(0, 9)],
];

/** Every 8 characters in a row of the password, in any case. */
const PIECES = Array.from({ length: PASSWORD.length - 7 }, (_, i) => PASSWORD.slice(i, i + 8).toLowerCase());

function leaksIn(text: string): string[] {
  const lower = text.toLowerCase();
  return [
    ...SPELLINGS.filter(([, spelling]) => lower.includes(spelling.toLowerCase())).map(([what]) => what),
    ...PIECES.filter((piece) => lower.includes(piece)).map((piece) => `piece ${piece}`),
  ];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('credential echoes in other spellings', () => {
  let world: SecretsWorld;
  let proxy: FaultProxy;
  let env: Record<string, string>;

  beforeAll(async () => {
    world = await startSecretsWorld({
      username: 'spelling-admin',
      applicationPassword: PASSWORD,
      token: 'cs_SpellingSecret0123456789==ck_SpellingKey9876543210',
      githubToken: 'ghs_SpellingGitHubToken00001111',
      prefix: 'svc-gitops-spellings-',
    });
    const echoed = SPELLINGS.map(([, spelling]) => spelling).join(' / ');
    proxy = await startFaultProxy(world.sandbox.url, {
      // Every name in the sites and updates listings starts with the echo.
      rewrite: (path, body) =>
        /list-(sites|updates)-v1/.test(path)
          ? Buffer.from(body.toString('utf8').replaceAll('"name":"', `"name":"(${echoed}) `))
          : body,
    });
    env = { ...world.env, SVC_URL: proxy.url };
  });
  afterAll(async () => {
    await proxy.close();
    await world.close();
  });

  it('reach no output, file, journal, step summary or GitHub body', async () => {
    const { cwd } = world;
    const outputs: string[] = [];
    for (const argv of [
      ['plan', '--out', 'plan.json'],
      ['plan', '--format', 'markdown'],
      ['comment'],
      ['apply', 'plan.json', '--format', 'json', '--out', 'report.json'],
    ]) {
      const result = await cli(argv, { env, cwd });
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBeLessThanOrEqual(2);
      outputs.push(result.stdout, result.stderr);
    }
    // The echo was really received and shown, masked.
    expect(readFileSync(join(cwd, 'plan.json'), 'utf8')).toContain('[redacted]');
    expect(world.github.comments.length).toBeGreaterThan(0);
    expect(filesUnder(cwd).some((path) => path.includes('journal-'))).toBe(true);
    expect(leaksIn(outputs.join('\n')), 'stdout and stderr').toEqual([]);
    for (const path of filesUnder(cwd)) expect(leaksIn(readFileSync(path, 'utf8')), path).toEqual([]);
    const posted = world.github.requests.map((request) => request.body ?? '').join('\n');
    expect(posted.length).toBeGreaterThan(0);
    expect(leaksIn(posted), 'bodies sent to GitHub').toEqual([]);
    expect(leaksIn(JSON.stringify(world.github.comments)), 'comments').toEqual([]);
  });
});
