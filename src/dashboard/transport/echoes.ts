import { SvcError } from '../../errors.js';
import { SecretMask } from '../../secrets/index.js';
import type { Json } from '../wire/json.js';

/**
 * A dashboard, or a proxy in front of it, may quote the credentials a request carried back in
 * any string of its answer: an error message, a per-item update error, a job's errors. The
 * transport masks every credential it has sent, in every spelling SecretMask knows, in each
 * parsed response before any other code sees it, so nothing downstream (errors, apply reports,
 * plans, comments) can hold one. Parsed strings are masked (as text from a server, fragments too),
 * not the raw text, so a mask never cuts a JSON escape in two.
 */
const MAX_DEPTH = 256;

export class EchoMask {
  private readonly sent = new Set<string>();
  private readonly secrets = new SecretMask();
  private watching = false;

  /** Masks these values too, sent or not (a front end's own secrets that an answer must never carry). */
  watch(secrets: ReadonlyArray<string | undefined>): void {
    const given = secrets.filter((s): s is string => Boolean(s));
    if (given.length === 0) return;
    this.secrets.add(given);
    this.watching = true;
  }

  /** Remembers the credentials of a request's Authorization header. */
  learn(headers: Record<string, string> | undefined): void {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (name.toLowerCase() !== 'authorization' || this.sent.has(value)) continue;
      this.sent.add(value);
      this.secrets.add(credentialsIn(value));
      this.watching = true;
    }
  }

  /**
   * `body` (parsed from `text`) with every credential masked, in place; `changed` says whether
   * any string was masked (when not, `text` still spells exactly the body).
   */
  mask(body: Json, text: string): { body: Json; changed: boolean } {
    if (!this.watching) return { body, changed: false };
    // SecretMask reads through JSON's escapes (and HTML's and percent-encoding) itself: when the
    // text holds no credential, no string of the body does (the usual case: large pages skip the
    // walk). WordPress writes every `/` as `\/`: undone first, natively, they cost no decoding.
    const plain = text.includes('\\/') ? text.replaceAll('\\/', '/') : text;
    if (!this.secrets.findsEcho(plain)) return { body, changed: false };
    const walked = { changed: false };
    return { body: this.walk(body, 0, walked), changed: walked.changed };
  }

  private walk(value: Json, depth: number, walked: { changed: boolean }): Json {
    if (typeof value === 'string') {
      const masked = this.text(value);
      if (masked !== value) walked.changed = true;
      return masked;
    }
    if (value === null || typeof value !== 'object') return value;
    // No dashboard answer nests more than a few levels; a hostile one must not exhaust the stack.
    if (depth > MAX_DEPTH) {
      throw new SvcError('BAD_RESPONSE', `the response nests more than ${MAX_DEPTH} levels deep`, {
        hint: 'The dashboard or a proxy in front of it sent a body no dashboard sends.',
      });
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.walk(value[i] as Json, depth + 1, walked);
      return value;
    }
    for (const key of Object.keys(value)) {
      const masked = this.walk(value[key] as Json, depth + 1, walked);
      const name = this.text(key);
      if (name === key && masked === value[key]) continue;
      walked.changed = true;
      if (name !== key) delete value[key];
      // Defined, never assigned: an own `__proto__` key stays an inert property (see wire/json.ts).
      Object.defineProperty(value, name, {
        value: masked,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return value;
  }

  private text(text: string): string {
    return this.secrets.maskEcho(text);
  }
}

/**
 * The credentials an Authorization header carries: a Basic login's encoded pair and its
 * password (the username is no secret), a bearer token, or any other scheme's value.
 */
function credentialsIn(authorization: string): string[] {
  const space = authorization.indexOf(' ');
  const scheme = space < 0 ? '' : authorization.slice(0, space).toLowerCase();
  const value = space < 0 ? authorization : authorization.slice(space + 1);
  if (scheme !== 'basic') return [value];
  const pair = Buffer.from(value, 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  return colon < 0 ? [value] : [value, pair.slice(colon + 1)];
}
