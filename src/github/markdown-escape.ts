/**
 * Escaping for the few values github/ writes into markdown itself (config paths, URLs, validation
 * messages); the plan body arrives already escaped by the markdown renderer. Values from files
 * and dashboards must not become links, mentions, HTML or table breaks in a PR comment.
 */

/** Inline text: markdown punctuation and HTML are escaped, `@` cannot ping anyone. */
export function escapeInline(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]{}()#+!|~])/g, '\\$1')
    .replace(/@/g, '@\u200b')
    .replace(/:\/\//g, ':\u200b//');
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
