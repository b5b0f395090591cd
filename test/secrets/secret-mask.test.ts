import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretMask, secretSpellings, strongFragment, wordlike } from '../../src/secrets/index.js';

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
    ['the token secret half', TOKEN.split('==')[0] as string],
    ['the token key half in upper case', (TOKEN.split('==')[1] as string).toUpperCase()],
  ])('masks the secret %s, inside other text', (_what, spelling) => {
    // A space next to the run, or base64 padding, may go with it: never a character more of it.
    expect(mask.mask(`before ${spelling} after`)).toMatch(/^before ?\[redacted\]=* ?after$/);
    expect(mask.finds(`x${spelling}x`)).toBe(true);
  });

  it.each([
    ['a 9-character prefix', PASSWORD.slice(0, 9)],
    ['8 characters from the middle', PASSWORD.slice(10, 18)],
    ['an upper-case 9-character prefix', PASSWORD.slice(0, 9).toUpperCase()],
  ])('masks %s of the secret in text from a server only', (_what, fragment) => {
    expect(mask.maskEcho(`before ${fragment} after`)).toMatch(/^before ?\[redacted\] ?after$/);
    expect(mask.findsEcho(`x${fragment}x`)).toBe(true);
    expect(mask.mask(`before ${fragment} after`)).toBe(`before ${fragment} after`);
  });

  it('leaves runs shorter than 8 characters and ordinary text alone', () => {
    for (const text of [PASSWORD.slice(0, 7), 'hello world', 'aB3d', '7QpX zK'])
      expect(mask.maskEcho(text)).toBe(text);
  });

  it('leaves sha256 fingerprints alone: hex is masked only from 8 characters of the secret on', () => {
    const hex = Buffer.from(PASSWORD).toString('hex');
    expect(mask.maskEcho(`${hex.slice(0, 14)}`)).toBe(hex.slice(0, 14));
    const digests = Array.from({ length: 20_000 }, (_, i) =>
      createHash('sha256').update(String(i)).digest('hex'),
    ).join('\n');
    expect(mask.findsEcho(digests)).toBe(false);
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
    // No escape characters: the reference knows no decoding (decode.test.ts covers it).
    const alphabet = 'aB3d 7QpXzK+tT4vLq2W';
    for (let round = 0; round < 40; round++) {
      const pieces: string[] = [];
      for (let k = 0; k < 6; k++) {
        pieces.push(Array.from({ length: random(12) }, () => alphabet[random(alphabet.length)]).join(''));
        const spelling = [PASSWORD, PASSWORD.replaceAll(' ', '+'), PASSWORD.toUpperCase(), TOKEN][
          random(4)
        ] as string;
        const from = random(spelling.length);
        pieces.push(spelling.slice(from, from + random(30)));
      }
      const text = pieces.join('');
      expect(mask.maskEcho(text), text).toBe(naiveMask([PASSWORD, TOKEN], text, true));
      expect(mask.mask(text), text).toBe(naiveMask([PASSWORD, TOKEN], text, false));
    }
  });
});

/**
 * The reference, straight from SecretMask's guarantee: at every text position and form offset,
 * the longest run equal in exact characters (spaces spelled as `+` alike) and in folded case.
 */
function naiveMask(secrets: string[], text: string, echo: boolean): string {
  const covered = new Array<boolean>(text.length).fill(false);
  const cover = (from: number, length: number) => {
    for (let k = from; k < from + length; k++) covered[k] = true;
  };
  const space = (c: string) => (c === '+' || c === '\u00a0' ? ' ' : c);
  for (const { form, need, kind } of secretSpellings(secrets)) {
    for (let i = 0; i < text.length; i++)
      for (let j = 0; j < form.length; j++) {
        const same = (a: string, b: string, folded: boolean) =>
          folded ? space(a).toLowerCase() === space(b).toLowerCase() : space(a) === space(b);
        const runOf = (folded: boolean) => {
          let n = 0;
          while (i + n < text.length && j + n < form.length && same(text[i + n]!, form[j + n]!, folded)) n++;
          return n;
        };
        const folded = runOf(true);
        if (folded === 0) continue;
        const exact = runOf(kind === 'hex');
        const anyCase = kind === 'hex' || (kind === 'text' && !wordlike(form));
        if (j === 0 && (exact === form.length || (anyCase && folded === form.length))) cover(i, form.length);
        const strong = () => kind !== 'text' || strongFragment(form.slice(j, j + exact));
        if (echo && exact >= need && strong()) cover(i, exact);
        if (echo && kind === 'text' && strongFragment(form.slice(j, j + folded))) cover(i, folded);
      }
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += '[redacted]';
  }
  return out;
}
