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
      message: 'sent [redacted]',
      '[redacted]': 1,
    });
  });

  it('refuses a hostile body nested deeper than any dashboard answer, instead of exhausting the stack', () => {
    const text = `${'['.repeat(5000)}"a\\\\b"${']'.repeat(5000)}`;
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
