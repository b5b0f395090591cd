import { describe, expect, it } from 'vitest';
import { DEFAULT_CREDENTIALS } from '../../src/sandbox/index.js';
import { SecretMask } from '../../src/secrets/index.js';

/**
 * Issue 29, item 2: a secret behind escapes is masked whole, escapes and all, wherever it stands;
 * and the mask never garbles text of the tool's own or of the dashboard's own.
 */
const PASSWORD = `Ab&<c>"d'e é/\\ 7QpX`;
const TOKEN = 'cs_Zz9&Yy8<Xx7==ck_Ww6>Vv5"Uu4';
const mask = new SecretMask([PASSWORD, TOKEN]);

const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
const decimal = (text: string) => [...text].map((c) => `&#${c.codePointAt(0)};`).join('');
const hexRefs = (text: string) => [...text].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('');
const percent = (text: string) =>
  [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
const jsonU = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('SecretMask reads through escapes', () => {
  it.each([
    ['HTML named references (htmlspecialchars)', html],
    ['HTML decimal references', decimal],
    ['HTML hex references', hexRefs],
    ['every byte percent-encoded, upper-case hex', percent],
    ['every byte percent-encoded, lower-case hex', (t: string) => percent(t).toLowerCase()],
    ['JSON \\u escapes', jsonU],
    [
      'JSON string escapes (\\/ \\" \\\\)',
      (t: string) => JSON.stringify(t).slice(1, -1).replaceAll('/', '\\/'),
    ],
    [
      'HTML references of percent-encoding',
      (t: string) => html(encodeURIComponent(t)).replaceAll('%', '&#37;'),
    ],
    ['double-escaped HTML (&amp;lt;)', (t: string) => html(html(t))],
  ])('masks the whole password and token behind %s', (_what, encode) => {
    for (const secret of [PASSWORD, TOKEN]) {
      const text = `said: ${encode(secret)}.`;
      expect(mask.mask(text), text).toBe('said: [redacted].');
      expect(mask.maskEcho(text), text).toBe('said: [redacted].');
    }
  });

  it('masks a tail behind escapes in text from a server, not in the tool text', () => {
    const tail = TOKEN.slice(-11);
    expect(mask.maskEcho(`x ${html(tail)} y`)).toBe('x [redacted] y');
    expect(mask.mask(`x ${html(tail)} y`)).toBe(`x ${html(tail)} y`);
  });

  it("masks base64 of a Basic login's user:password for any user name (each byte alignment)", () => {
    const plain = 'Qw3r Ty7u Io9p';
    const basic = new SecretMask([plain]);
    for (const user of ['a', 'ab', 'abc', 'someone-else']) {
      const encoded = Buffer.from(`${user}:${plain}`).toString('base64');
      const out = basic.mask(`Authorization: Basic ${encoded}`);
      expect(out, user).toContain('[redacted]');
      // What is left is at most the user name's part: no 11 characters of the password's.
      expect(out.replace(/^Authorization: Basic /, '').replace('[redacted]', '').length).toBeLessThan(
        Math.ceil(((user.length + 1) * 4) / 3) + 3,
      );
    }
  });
});

describe('SecretMask never garbles text the tool or the dashboard wrote', () => {
  it('a word inside the password stays readable in a hint naming the variables', () => {
    const words = new SecretMask(['aB3d PASSWORD zK3w']);
    const hint = 'Check SVC_USER and SVC_APP_PASSWORD, or the PASSWORD field.';
    expect(words.mask(hint)).toBe(hint);
    expect(words.maskEcho(hint)).toBe(hint);
    expect(words.mask('bad aB3d PASSWORD zK3w here')).toBe('bad [redacted] here');
  });

  it("the sandbox's demo password leaves the dashboard's own messages readable", () => {
    const demo = new SecretMask([DEFAULT_CREDENTIALS.applicationPassword, DEFAULT_CREDENTIALS.token]);
    for (const message of [
      'The provided password is an invalid application password.',
      'Unknown username. Check again or try your email address. Your demo password word list.',
    ]) {
      expect(demo.maskEcho(message)).toBe(message);
      expect(demo.mask(message)).toBe(message);
    }
    expect(demo.maskEcho(`echo ${DEFAULT_CREDENTIALS.applicationPassword.toUpperCase()}`)).toBe(
      'echo [redacted]',
    );
  });

  it('a wordlike secret is masked in its own case only', () => {
    const weak = new SecretMask(['Password']);
    expect(weak.mask('SVC_APP_PASSWORD and password')).toBe('SVC_APP_PASSWORD and password');
    expect(weak.mask('it is Password')).toBe('it is [redacted]');
  });
});
