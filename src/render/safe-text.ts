/**
 * Dashboard-provided strings (site URLs, plugin names, messages) are untrusted. Before any of
 * them reaches a terminal or a comment, control characters (ANSI escapes, newlines, bidi
 * overrides) are neutralised and the length is bounded, so a hostile name can neither rewrite
 * the screen nor forge extra plan lines.
 */

const MAX_FIELD = 300;

// C0 and C1 controls, DEL, line/paragraph separators, every bidi control (embeddings, overrides,
// isolates, the marks U+061C, U+200E, U+200F), and invisible characters that can hide text:
// zero-width space, word joiner and invisible operators, the deprecated format controls, the
// byte-order mark, interlinear annotation marks and tag characters. The joiners U+200C/U+200D
// stay: scripts and emoji need them.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/gu;
const HAS_UNSAFE = new RegExp(UNSAFE.source, 'u');

/**
 * A message for a terminal line that may quote the dashboard (an error, a warning): controls
 * neutralised as in safeText, but its own line breaks and length kept.
 */
export function terminalText(value: string): string {
  if (!HAS_UNSAFE.test(value)) return value;
  return value.replace(UNSAFE, (c) => (c === '\n' || c === '\t' ? c : c === '\r' ? ' ' : '\ufffd'));
}

export function safeText(value: string, max = MAX_FIELD): string {
  // The common case, checked without copying: nothing to neutralise and short enough (a
  // string of at most `max` code units has at most `max` characters).
  if (value.length <= max && !HAS_UNSAFE.test(value)) return value;
  const cleaned = value.replace(UNSAFE, (c) => (c === '\t' || c === '\n' || c === '\r' ? ' ' : '\ufffd'));
  const chars = [...cleaned];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : cleaned;
}
