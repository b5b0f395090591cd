/**
 * RFC 8288 `Link` header parsing, as GitHub uses it for pagination:
 * `<https://api.github.com/…&page=2>; rel="next", <…&page=5>; rel="last"`.
 */

/** The URL of the link with the given relation, or undefined when the header has none. */
export function linkWithRel(header: string | undefined, rel: string): string | undefined {
  if (!header) return undefined;
  for (const part of splitLinks(header)) {
    const match = /^\s*<([^>]*)>(.*)$/s.exec(part);
    if (!match) continue;
    const params = match[2] ?? '';
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const value = rels?.[1] ?? rels?.[2];
    if (value?.split(/\s+/).includes(rel)) return match[1];
  }
  return undefined;
}

/** Splits on commas that separate links (commas inside `<…>` or quotes belong to the link). */
function splitLinks(header: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inUrl = false;
  let inQuotes = false;
  for (const char of header) {
    if (char === '<' && !inQuotes) inUrl = true;
    else if (char === '>' && !inQuotes) inUrl = false;
    else if (char === '"' && !inUrl) inQuotes = !inQuotes;
    if (char === ',' && !inUrl && !inQuotes) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}
