/**
 * Shell-style globs for slugs and host names: `*` matches any run of characters (including
 * `/` and `.`), `?` exactly one; every other character matches itself. No character classes,
 * so a `[` in a slug is literal. Case-sensitive; callers normalise case where it is meaningless.
 */

export type Matcher = (value: string) => boolean;

export function compileGlob(pattern: string): Matcher {
  if (!pattern.includes('*') && !pattern.includes('?')) return (value) => value === pattern;
  let source = '';
  for (const c of pattern) {
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else source += c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }
  const regExp = new RegExp(`^${source}$`, 'su');
  return (value) => regExp.test(value);
}

/** A matcher that is true when any of the patterns matches; an empty list matches nothing. */
export function compileGlobs(patterns: readonly string[]): Matcher {
  const matchers = patterns.map(compileGlob);
  return (value) => matchers.some((matches) => matches(value));
}
