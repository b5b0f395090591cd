import { afterEach, describe, expect, it } from 'vitest';
import { SvcError } from '../../src/errors.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

const PASSWORD = 'CANA RYPW SECR ET01 2345 6789';
const WRONG_PASSWORD = 'CANA RYWR ONGP ASSW 0RD0 0000';
const TOKEN = 'cs_canarysecret0123456789==ck_canarykey0123456789';
const WRONG_TOKEN = 'cs_canarywrongsecret0000==ck_canarywrongkey0000';

let h: Harness | undefined;
afterEach(() => h?.close());

/** Everything a person or a log could ever see of an error. */
function visible(error: unknown): string {
  if (!(error instanceof SvcError)) return String(error);
  return [
    error.message,
    error.hint ?? '',
    JSON.stringify(error.details),
    String(error.cause ?? ''),
    error.stack ?? '',
  ].join('\n');
}

describe('credentials never leak', () => {
  it('appear in no error, warning or request log line', async () => {
    h = await openHarness(
      { credentials: { username: 'admin', applicationPassword: PASSWORD, token: TOKEN } },
      { SVC_SKIP_SSL_VERIFY: '0' },
    );
    const seen: string[] = [];
    const options = {
      onWarning: (m: string) => seen.push(m),
      onRequest: (e: unknown) => seen.push(JSON.stringify(e)),
    };
    const good = h.client({}, options);
    seen.push(JSON.stringify(await good.readLive()), JSON.stringify(good.stats()), good.url);
    const attempts = [
      () => h?.client({ applicationPassword: WRONG_PASSWORD }, options).readLive(),
      () => h?.client({ username: undefined, applicationPassword: undefined } as never, options).readLive(),
      () => h?.client({ token: WRONG_TOKEN }, options).readLive(),
      () => h?.client({ dashboardUrl: 'http://127.0.0.1:1', maxRetries: 1 }, options).readLive(),
      () => good.setIgnored({ siteId: 999, kind: 'plugin', direction: 'ignore', slugs: ['a/a.php'] }),
    ];
    for (const attempt of attempts) {
      const error = await Promise.resolve(attempt()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SvcError);
      seen.push(visible(error));
    }
    const text = seen.join('\n');
    const base64 = (s: string) => Buffer.from(s).toString('base64');
    for (const secret of [PASSWORD, WRONG_PASSWORD, TOKEN, WRONG_TOKEN]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.replace(/ /g, ''));
      for (const half of secret.split('==')) expect(text).not.toContain(half);
    }
    expect(text).not.toContain(base64(`admin:${PASSWORD}`));
    expect(text).not.toContain('CANA RYPW');
  });
});
