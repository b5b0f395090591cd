import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretMask } from '../../src/dashboard/transport/secret-mask.js';

const PASSWORD = 'aB3d 7QpX zK3w mB9d Lq2W tT4v';
const TOKEN = 'cs_0123456789abcdefABCDEF==ck_fedcba9876543210FEDCBA';

describe('SecretMask', () => {
  const mask = new SecretMask([PASSWORD, TOKEN]);

  it.each([
    ['as given', PASSWORD],
    ['without spaces', PASSWORD.replaceAll(' ', '')],
    ['+ for spaces', PASSWORD.replaceAll(' ', '+')],
    ['%20 for spaces', encodeURIComponent(PASSWORD)],
    ['&#32; for spaces', PASSWORD.replaceAll(' ', '&#32;')],
    ['&#x20; for spaces', PASSWORD.replaceAll(' ', '&#x20;')],
    ['&nbsp; for spaces', PASSWORD.replaceAll(' ', '&nbsp;')],
    ['upper case', PASSWORD.toUpperCase()],
    ['lower case', PASSWORD.toLowerCase()],
    ['base64', Buffer.from(PASSWORD).toString('base64')],
    ['base64 without spaces', Buffer.from(PASSWORD.replaceAll(' ', '')).toString('base64url')],
    ['hex', Buffer.from(PASSWORD).toString('hex')],
    ['HEX', Buffer.from(PASSWORD).toString('hex').toUpperCase()],
    ['a 9-character prefix', PASSWORD.slice(0, 9)],
    ['8 characters from the middle', PASSWORD.slice(10, 18)],
    ['the token secret half', TOKEN.split('==')[0] as string],
    ['the token key half in upper case', (TOKEN.split('==')[1] as string).toUpperCase()],
  ])('masks the secret %s, inside other text', (_what, spelling) => {
    // A space next to the run, or base64 padding, may go with it: never a character more of it.
    expect(mask.mask(`before ${spelling} after`)).toMatch(/^before ?\[redacted\]=* ?after$/);
    expect(mask.finds(`x${spelling}x`)).toBe(true);
  });

  it('leaves runs shorter than 8 characters and ordinary text alone', () => {
    for (const text of [PASSWORD.slice(0, 7), 'hello world', 'aB3d', '7QpX zK'])
      expect(mask.mask(text)).toBe(text);
  });

  it('leaves sha256 fingerprints alone: hex is masked only from 8 characters of the secret on', () => {
    const hex = Buffer.from(PASSWORD).toString('hex');
    expect(mask.mask(`${hex.slice(0, 14)}`)).toBe(hex.slice(0, 14));
    const digests = Array.from({ length: 20_000 }, (_, i) =>
      createHash('sha256').update(String(i)).digest('hex'),
    ).join('\n');
    expect(mask.finds(digests)).toBe(false);
  });

  it('masks several echoes and overlapping spellings as one range each', () => {
    const text = `${PASSWORD} and ${PASSWORD.replaceAll(' ', '+').toUpperCase()}!`;
    expect(mask.mask(text)).toBe('[redacted] and [redacted]!');
  });
});
