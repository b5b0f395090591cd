import { describe, expect, it } from 'vitest';
import { EchoMask } from '../../src/dashboard/transport/echoes.js';
import { parseJson } from '../../src/dashboard/wire/json.js';
import { svcErrorSync } from '../helpers/errors.js';

describe('EchoMask: credentials a response quotes back are masked before anyone reads them', () => {
  const mask = new EchoMask();
  mask.learn({ authorization: 'Bearer cs_0123456789abcdef==ck_fedcba9876543210' });

  it('masks the token and each of its halves in strings and keys, also behind JSON escapes', () => {
    const text = '{"message":"sent cs_0123456789abcdef\\u003d=ck_fedcba9876543210","ck_fedcba9876543210":1}';
    expect(mask.mask(parseJson(text, 'w'), text)).toEqual({
      body: { message: 'sent [redacted]', '[redacted]': 1 },
      changed: true,
    });
  });

  it('masks a password spelled with short escapes (\\/ as WordPress writes every slash, \\" and \\\\)', () => {
    const basic = new EchoMask();
    const password = 'Ab/c"d\\e Fg/h';
    basic.learn({ authorization: `Basic ${Buffer.from(`ops:${password}`).toString('base64')}` });
    const text = JSON.stringify({ url: 'https://a.test/x', message: `bad ${password}` }).replaceAll(
      '/',
      '\\/',
    );
    expect(text).toContain('Ab\\/c\\"d\\\\e');
    expect(basic.mask(parseJson(text, 'w'), text)).toEqual({
      body: { url: 'https://a.test/x', message: 'bad [redacted]' },
      changed: true,
    });
    // A page with escaped slashes and no credential comes back as parsed, marked unchanged.
    const clean = JSON.stringify({ url: 'https://a.test/y' }).replaceAll('/', '\\/');
    expect(basic.mask(parseJson(clean, 'w'), clean)).toEqual({
      body: { url: 'https://a.test/y' },
      changed: false,
    });
    // Behind a \u escape every string is walked; none holding a credential is still unchanged.
    const escaped = '{"name":"caf\\u00e9"}';
    expect(basic.mask(parseJson(escaped, 'w'), escaped)).toEqual({ body: { name: 'café' }, changed: false });
  });

  it("masks watched secrets that were never sent (a front end's own), and only once watched", () => {
    const front = new EchoMask();
    const text = '{"note":"the key is http-token-0123456789abcdef"}';
    expect(front.mask(parseJson(text, 'w'), text).changed).toBe(false);
    front.watch(['http-token-0123456789abcdef', undefined, '']);
    expect(front.mask(parseJson(text, 'w'), text)).toEqual({
      body: { note: 'the key is [redacted]' },
      changed: true,
    });
  });

  it('refuses a hostile body nested deeper than any dashboard answer, instead of exhausting the stack', () => {
    // It quotes a credential, so the walk that masks it must go all the way down.
    const text = `${'['.repeat(5000)}"cs_0123456789abcdef"${']'.repeat(5000)}`;
    expect(() => mask.mask(parseJson(text, 'w'), text)).toThrow(/nests more than 256 levels/);
  });

  it('a body that is not JSON is refused without quoting it (it may be an echoed credential)', () => {
    const text = 'cs_0123456789abcdef==ck_fedcba9876543210';
    const error = svcErrorSync(() => parseJson(text, 'GET /x'));
    expect(error.message).toMatch(/GET \/x: the response is not valid JSON \(a syntax error/);
    expect(error.code).toBe('BAD_RESPONSE');
    // Neither the message nor anything else the error carries quotes the body.
    expect(error.message).not.toContain('cs_0123');
    expect(JSON.stringify({ hint: error.hint, details: error.details })).not.toContain('cs_0123');
  });
});
