/**
 * A URL as svc-gitops may show or record it: no user info (a password can sit there), no query
 * and no fragment (tokens travel there). Every place that prints, logs or saves the dashboard's
 * address goes through this one function. A string that does not parse as a URL has anything
 * between `//` and `@` and everything from `?` or `#` removed.
 */
export function publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/s, '');
  }
}
