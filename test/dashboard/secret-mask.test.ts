import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretMask, secretSpellings } from '../../src/dashboard/transport/secret-mask.js';

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

  it('masks a secret shorter than a run whole, at every offset', () => {
    const short = new SecretMask(['k3Y9z']);
    for (let pad = 0; pad < 9; pad++) {
      const before = 'x'.repeat(pad);
      expect(short.mask(`${before}K3Y9Z-`)).toBe(`${before}[redacted]-`);
    }
    expect(short.mask('k3Y9')).toBe('k3Y9');
  });

  it('finds exactly the runs a character-by-character search finds, at every alignment (seeded)', () => {
    let seed = 2026;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const alphabet = 'aB3d 7QpXzK+%20&#;';
    for (let round = 0; round < 300; round++) {
      const pieces: string[] = [];
      for (let k = 0; k < 6; k++) {
        pieces.push(Array.from({ length: random(12) }, () => alphabet[random(alphabet.length)]).join(''));
        const spelling = [PASSWORD, PASSWORD.replaceAll(' ', '+'), TOKEN][random(3)] as string;
        const from = random(spelling.length);
        pieces.push(spelling.slice(from, from + random(14)));
      }
      const text = pieces.join('');
      expect(mask.mask(text)).toBe(naiveMask([PASSWORD, TOKEN], text));
    }
  });
});

/** The reference: every run of every spelling checked at every text position and form offset. */
function naiveMask(secrets: string[], text: string): string {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const covered = new Array<boolean>(text.length).fill(false);
  for (const { form: given, run } of secretSpellings(secrets)) {
    const form = given.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const need = Math.min(run, form.length);
    for (let i = 0; i < lower.length; i++)
      for (let j = 0; j < form.length; j++) {
        let n = 0;
        while (i + n < lower.length && j + n < form.length && lower[i + n] === form[j + n]) n++;
        if (n >= need) for (let k = i; k < i + n; k++) covered[k] = true;
      }
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += '[redacted]';
  }
  return out;
}
