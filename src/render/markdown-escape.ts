/**
 * Escaping for GitHub-flavoured markdown. Every dashboard-provided string goes through
 * `escapeMarkdown` before it is placed in text, a table cell or a `<summary>`; names inside
 * fenced code go through `fenceFor` + `safeText` instead.
 *
 * - markup: punctuation that can open syntax mid-line (\ ` * _ [ ] | ~ ! $) becomes a numeric
 *   character reference, which CommonMark never reads as syntax, and `& < >` become HTML
 *   entities; so no tag, link, image, emphasis, code span, strikethrough, math or table pipe
 *   can form, and the same text is safe inside HTML such as `<summary>`. Without a literal `[`
 *   or `<` no link can start, so parentheses and quotes stay readable. Escaped text is never
 *   placed at the start of a line, so line-start syntax (`#`, `-`, `+`, `1.`) needs nothing;
 * - mentions, references and autolinks: a zero-width space after `@` and `#`, inside `://`,
 *   after `www` and in `GH-`, and after every sixth character of a run of 7 or more hex digits
 *   (GitHub links commit SHAs of 7 or more), so `@team`, `#123`, `GH-1`, `user@host`,
 *   `https://…` and a SHA stay plain text;
 * - controls and length: see safe-text.ts.
 */
import { safeText } from './safe-text.js';

const ZWSP = '\u200b';
const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const PUNCTUATION = /[\\`*_[\]|~!$]/;

/** `max` bounds the length (safe-text.ts); comments pass Infinity to keep whole messages. */
export function escapeMarkdown(value: string, max?: number): string {
  const text = safeText(value, max)
    .replace(/[@#]/g, (c) => c + ZWSP)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/(www)(\.)/gi, `$1${ZWSP}$2`)
    .replace(/\b(gh)-/gi, `$1${ZWSP}-`)
    .replace(/[0-9a-f]{7,}/gi, (run) => run.replace(/[0-9a-f]{6}(?=[0-9a-f])/gi, `$&${ZWSP}`));
  let out = '';
  for (const c of text) {
    const named = NAMED[c];
    if (named !== undefined) out += named;
    else if (PUNCTUATION.test(c)) out += `&#${c.codePointAt(0)};`;
    else out += c;
  }
  return out;
}

/** A code fence longer than any backtick run in `content`, so the content cannot close it. */
export function fenceFor(content: string): string {
  let longest = 0;
  for (const match of content.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * A URL as copyable text: a code span, which GitHub never turns into a link (so nothing is
 * inserted into the address), with the characters a span or a table cell would read as syntax
 * (backtick, pipe) and whitespace percent-encoded, as a URL may write them. Controls go through
 * safeText first.
 */
export function markdownUrl(url: string): string {
  const text = safeText(url).replace(
    /[`|\s<>]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `\`${text}\``;
}

/** A code span that cannot be closed early: backticks are dropped, newlines flattened. */
export function codeSpan(text: string): string {
  const clean = text.replace(/`/g, "'").replace(/[\r\n]+/g, ' ');
  return `\`${clean}\``;
}

/**
 * An http(s) URL safe inside `[text](url)`, or undefined when it is not one. Credentials in it
 * (`https://user:token@host/…`) are dropped: a comment or summary is no place for them.
 */
export function linkTarget(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    parsed.username = '';
    parsed.password = '';
    return parsed.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
  } catch {
    return undefined;
  }
}
