import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../dashboard/helpers/server.js';
import { cli } from '../helpers/cli.js';
import { REPO, tempDir } from './helpers.js';

/**
 * A dashboard (or a proxy in front of it) that quotes the request's credentials back in its
 * error message, in the spellings a server might use. Whether the credentials come from the
 * environment or from settings.json, none of those spellings may reach the output.
 */
const USERNAME = 'echo-admin';
const PASSWORD = 'EcHo 7QpX zK3w mB9d Lq2W tT4v';
const TOKEN_SECRET = 'cs_ECHOc0ffee5ecret7777aaaa';
const TOKEN_KEY = 'ck_ECHOdeadbeefkey8888bbbb';
const TOKEN = `${TOKEN_SECRET}==${TOKEN_KEY}`;

const FORBIDDEN: ReadonlyArray<[string, string]> = [
  ['application password', PASSWORD],
  ['application password without spaces', PASSWORD.replaceAll(' ', '')],
  ['URL-encoded application password', encodeURIComponent(PASSWORD)],
  ['REST token', TOKEN],
  ['REST token secret half', TOKEN_SECRET],
  ['REST token key half', TOKEN_KEY],
];

describe('a dashboard that echoes the credentials it was sent', () => {
  let echo: TestServer;

  beforeAll(async () => {
    echo = await startServer((req, res) => {
      const auth = String(req.headers.authorization ?? '');
      const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString() : '';
      const [user, password = ''] = decoded.split(/:(.*)/s);
      json(res, 400, {
        code: 'echo',
        message: `user ${user} password ${encodeURIComponent(password)} with key ${TOKEN_KEY} and secret ${TOKEN_SECRET}`,
        data: { status: 400 },
      });
    });
  });
  afterAll(() => echo.close());

  for (const source of ['environment', 'settings.json'] as const) {
    it(`no spelling of a credential from the ${source} reaches stderr`, async () => {
      const cwd = tempDir();
      const env: Record<string, string> = {
        HOME: tempDir(),
        SVC_URL: echo.url,
        SVC_ALLOW_HTTP: 'true',
        SVC_RATE_LIMIT: '0',
        SVC_RETRY_BASE_DELAY: '1',
        SVC_RETRY_MAX_DELAY: '5',
      };
      if (source === 'environment') {
        Object.assign(env, { SVC_USER: USERNAME, SVC_APP_PASSWORD: PASSWORD, SVC_TOKEN: TOKEN });
      } else {
        writeFileSync(
          join(cwd, 'settings.json'),
          JSON.stringify({ username: USERNAME, applicationPassword: PASSWORD, token: TOKEN }),
        );
      }
      const result = await cli(['plan', '-c', join(REPO, 'examples/minimal.yaml')], { env, cwd });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`user ${USERNAME} password`);
      const leaked = FORBIDDEN.filter(([, secret]) => `${result.stdout}${result.stderr}`.includes(secret));
      expect(leaked.map(([what]) => what)).toEqual([]);
    });
  }
});
