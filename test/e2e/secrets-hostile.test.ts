import { copyFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { json, startServer, type TestServer } from '../dashboard/helpers/server.js';
import type { FakeGitHub } from '../github/fake-github.js';
import { cli } from '../helpers/cli.js';
import { REPO, sandboxEnv, startDemo, tempDir } from './helpers.js';
import { type SecretsWorld, startSecretsWorld } from './secrets-world.js';

/**
 * Hostile dashboards and GitHub servers that quote the credentials they were sent back in
 * places other than an error envelope: per-item update errors, bodies that are not JSON,
 * messages long enough to be clipped. No spelling of a credential, and no piece of one long
 * enough to matter, may reach stdout, stderr, a file the run writes, or text sent to GitHub.
 */
const USERNAME = 'hostile-admin';
// A quote and a backslash: JSON output spells these escaped, so a leak there looks different.
const PASSWORD = 'Ho"s 7QpX zK3w\\mB9d Lq2W tT4v';
const TOKEN_SECRET = 'cs_Wq83nfXc0ffee5ecret7777aaaa';
const TOKEN_KEY = 'ck_Pz61kdRdeadbeefkey8888bbbb';
const TOKEN = `${TOKEN_SECRET}==${TOKEN_KEY}`;
const GITHUB_TOKEN = 'ghs_Jm4vYt2githubT0ken99990000';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
const BASIC = b64(`${USERNAME}:${PASSWORD}`);

/** Every spelling of every credential, whole. */
const WHOLE: ReadonlyArray<[string, string]> = [
  ['application password', PASSWORD],
  ['JSON-escaped application password', jsonEscaped(PASSWORD)],
  ['application password without spaces', PASSWORD.replaceAll(' ', '')],
  ['URL-encoded application password', encodeURIComponent(PASSWORD)],
  ['base64 of user:password', BASIC],
  ['REST token', TOKEN],
  ['REST token secret half', TOKEN_SECRET],
  ['REST token key half', TOKEN_KEY],
  ['GitHub token', GITHUB_TOKEN],
];

/** Pieces: any 8 characters in a row of a password, a token or a token half. */
const PIECE = 8;
const PIECE_SOURCES: ReadonlyArray<[string, string]> = [
  ['application password', PASSWORD],
  ['JSON-escaped application password', jsonEscaped(PASSWORD)],
  ['REST token', TOKEN],
  ['GitHub token', GITHUB_TOKEN],
];
const PIECES = PIECE_SOURCES.flatMap(([what, secret]) =>
  Array.from({ length: secret.length - PIECE + 1 }, (_, i): [string, string] => [
    `${what} (characters ${i}–${i + PIECE})`,
    secret.slice(i, i + PIECE),
  ]),
);

function leaksIn(text: string): string[] {
  return [...WHOLE, ...PIECES].filter(([, secret]) => text.includes(secret)).map(([what]) => what);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The credential a request carried: the application password of a Basic login, or the bearer token. */
function credentialOf(headers: IncomingHttpHeaders): string {
  const auth = String(headers.authorization ?? '');
  if (auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString() : '';
  return decoded.slice(decoded.indexOf(':') + 1);
}

describe('hostile servers quoting credentials back', () => {
  let sandbox: RunningSandbox;
  let proxy: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startDemo('compat-6.1', {
      credentials: { username: USERNAME, applicationPassword: PASSWORD, token: TOKEN },
    });
    // In front of the sandbox: every call goes through, except that run-updates answers with one
    // error per site whose message quotes the request's Authorization header and credential.
    proxy = await startServer(async (req, res, body) => {
      const url = req.url ?? '/';
      if (req.method === 'POST' && url.includes('/run-updates-v1/run')) {
        const input = (JSON.parse(body) as { input: { site_ids_or_domains: number[] } }).input;
        json(res, 200, {
          updated: [],
          errors: input.site_ids_or_domains.map((id) => ({
            site_id: id,
            code: 'echo',
            message: `rejected ${req.headers.authorization} (password ${credentialOf(req.headers)})`,
          })),
        });
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] =>
            typeof entry[1] === 'string' && !['host', 'connection', 'content-length'].includes(entry[0]),
        ),
      );
      const answer = await fetch(`${sandbox.url}${url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body === '' ? {} : { body }),
      });
      const text = await answer.text();
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(text);
    });
    env = { ...sandboxEnv(sandbox, tempDir()), SVC_URL: proxy.url };
    expect(env.SVC_APP_PASSWORD).toBe(PASSWORD);
  });
  afterAll(async () => {
    await proxy.close();
    await sandbox.close();
  });

  for (const format of ['json', 'text', 'markdown']) {
    it(`per-item update errors quoting the login reach no apply report (--format ${format}, --out)`, async () => {
      const cwd = tempDir('svc-gitops-hostile-');
      copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
      const result = await cli(
        ['apply', '--auto-approve', '--target', '1', '--format', format, '--out', 'report.out'],
        { env, cwd },
      );
      expect(result.code, result.stderr).toBe(1);
      const report = readFileSync(join(cwd, 'report.out'), 'utf8');
      // The call did fail with the dashboard's code: the echo was really received.
      expect(report).toContain('echo');
      expect(leaksIn(result.stdout), 'stdout').toEqual([]);
      expect(leaksIn(result.stderr), 'stderr').toEqual([]);
      for (const path of filesUnder(cwd)) expect(leaksIn(readFileSync(path, 'utf8')), path).toEqual([]);
    });
  }
});

describe('a dashboard answering with a body that is not JSON', () => {
  let echo: TestServer;

  beforeAll(async () => {
    // A debugging proxy that answers every request with the credential it carried, as plain text.
    echo = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(credentialOf(req.headers));
    });
  });
  afterAll(() => echo.close());

  for (const login of ['password', 'token'] as const) {
    it(`no piece of the ${login} reaches stderr, the plan comment or the step summary`, async () => {
      const cwd = tempDir('svc-gitops-hostile-');
      copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
      const env: Record<string, string> = {
        HOME: tempDir(),
        SVC_URL: echo.url,
        SVC_ALLOW_HTTP: 'true',
        SVC_RATE_LIMIT: '0',
        GITHUB_STEP_SUMMARY: join(cwd, 'summary.md'),
        ...(login === 'password' ? { SVC_USER: USERNAME, SVC_APP_PASSWORD: PASSWORD } : { SVC_TOKEN: TOKEN }),
      };
      const planned = await cli(['plan'], { env, cwd });
      expect(planned.code).toBe(1);
      expect(planned.stderr).toContain('BAD_RESPONSE');
      expect(leaksIn(planned.stderr), 'plan stderr').toEqual([]);
      const commented = await cli(['comment', '--dry-run'], { env, cwd });
      expect(commented.code).toBe(1);
      expect(leaksIn(commented.stdout + commented.stderr), 'comment output').toEqual([]);
      expect(readFileSync(join(cwd, 'summary.md'), 'utf8')).toContain('BAD_RESPONSE');
      for (const path of filesUnder(cwd)) expect(leaksIn(readFileSync(path, 'utf8')), path).toEqual([]);
    });
  }
});

describe('GitHub servers and URLs', () => {
  let world: SecretsWorld;
  let github: FakeGitHub;
  let cwd: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    world = await startSecretsWorld({
      username: USERNAME,
      applicationPassword: PASSWORD,
      token: TOKEN,
      githubToken: GITHUB_TOKEN,
      prefix: 'svc-gitops-hostile-',
    });
    ({ github, cwd, env } = world);
  });
  afterAll(() => world.close());

  it('a GitHub error message that quotes the token past its length limit leaves no piece of it', async () => {
    // GitHub's message is clipped to 500 characters: the token straddles the cut.
    github.fail({ method: 'POST', status: 422, body: { message: `${'x'.repeat(490)}${GITHUB_TOKEN}` } });
    const result = await cli(['comment'], { env, cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('422');
    expect(leaksIn(result.stdout + result.stderr)).toEqual([]);
  });

  it('a GitHub answer that quotes the token in the comment URL leaves it in no step output', async () => {
    github.fail({
      method: 'POST',
      status: 201,
      body: { id: 99, html_url: `https://github.test/acme/sites/pull/8#issuecomment-99-${GITHUB_TOKEN}` },
    });
    const result = await cli(['comment', '--pr', '8'], { env, cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'output.txt'), 'utf8')).toContain('issuecomment-99');
    expect(leaksIn(result.stdout + result.stderr)).toEqual([]);
    for (const path of filesUnder(cwd)) expect(leaksIn(readFileSync(path, 'utf8')), path).toEqual([]);
  });

  it('credentials in GITHUB_API_URL or GITHUB_SERVER_URL reach no output, comment or file', async () => {
    const inUrl = 'ghp_URLc0ffee5ecret7777aaaa';
    const invalid = await cli(['comment'], {
      env: { ...env, GITHUB_API_URL: `https://x-access-token:${inUrl}@ghe.example.test:99999/api/v3` },
      cwd,
    });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('GITHUB_API_URL');
    expect(`${invalid.stdout}${invalid.stderr}`).not.toContain(inUrl);

    const server = await cli(['comment'], {
      env: { ...env, GITHUB_SERVER_URL: `https://x-access-token:${inUrl}@ghe.example.test` },
      cwd,
    });
    expect(server.code, server.stderr).toBe(0);
    expect(`${server.stdout}${server.stderr}`).not.toContain(inUrl);
    expect(JSON.stringify(github.comments)).toContain('ghe.example.test');
    expect(JSON.stringify(github.comments)).not.toContain(inUrl);
    for (const path of filesUnder(cwd)) expect(readFileSync(path, 'utf8'), path).not.toContain(inUrl);
  });
});
