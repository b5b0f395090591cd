/**
 * A version as one number that orders like compareVersions, when it can: up to four numeric
 * parts, each below 8191 (`6.4.1`, `10.0.0.3`, `01.2`). Each part is stored plus one and a
 * missing part as 0, so `1.0 < 1.0.0` and `6.4 < 6.4.1` as in PHP's version_compare; the
 * parts are split as canonicalSegments splits them (any run of non-alphanumerics), and leading
 * zeros do not count. A version with a letter, a fifth part or a larger part has no key (-1):
 * the caller compares it the long way. Allocates nothing: the matcher calls it per pending
 * update of a fleet.
 */
const BASE = 8192;
const PARTS = 4;

export function versionKey(version: string): number {
  let key = 0;
  let parts = 0;
  let part = -1;
  for (let i = 0; i < version.length; i++) {
    const c = version.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      part = (part < 0 ? 0 : part * 10) + (c - 48);
      if (part >= BASE - 1) return -1;
    } else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return -1;
    else if (part >= 0) {
      if (parts === PARTS) return -1;
      key = key * BASE + part + 1;
      parts++;
      part = -1;
    }
  }
  if (part >= 0) {
    if (parts === PARTS) return -1;
    key = key * BASE + part + 1;
    parts++;
  }
  for (; parts < PARTS; parts++) key *= BASE;
  return key;
}
