/**
 * svc-gitops' own advisory format, for teams whose advisories come from elsewhere: JSON Lines,
 * a header, one advisory per line, and a trailer that counts them (a file cut at a line break
 * is then still refused as truncated):
 *
 *   {"format": "svc-advisories", "version": 1}
 *   {"id": "ACME-1", "kind": "plugin", "slug": "akismet", "title": "…", "cve": "CVE-…",
 *    "cvss": 9.8, "link": "https://…", "affected": [{"from": "*", "to": "5.3.6",
 *    "to_inclusive": true}], "patched": ["5.3.7"]}
 *   {"end": true, "count": 1}
 *
 * `from`/`to` default to `*` (open), `from_inclusive`/`to_inclusive` to true; `cve`, `cvss`
 * and `patched` (default none: no fix) are optional; `kind` is `plugin`, `theme` or `core`
 * (slug `wordpress`); plugin slugs are folder names. Blank lines are allowed.
 */
import type { Advisory, VersionRange } from '../types.js';
import { RecordError } from './wordfence.js';

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function need(condition: boolean, message: string): asserts condition {
  if (!condition) throw new RecordError(message);
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';
const optionalBoolean = (value: unknown) => value === undefined || typeof value === 'boolean';

function rangeOf(value: unknown, id: string): VersionRange {
  need(isObject(value), `advisory ${id}: a range is not an object`);
  need(optionalString(value.from) && optionalString(value.to), `advisory ${id}: from/to must be versions`);
  need(
    optionalBoolean(value.from_inclusive) && optionalBoolean(value.to_inclusive),
    `advisory ${id}: from_inclusive/to_inclusive must be true or false`,
  );
  return {
    from: (value.from as string | undefined) ?? '*',
    fromInclusive: value.from_inclusive !== false,
    to: (value.to as string | undefined) ?? '*',
    toInclusive: value.to_inclusive !== false,
  };
}

export function isSvcHeader(value: unknown): boolean {
  return isObject(value) && value.format === 'svc-advisories' && value.version === 1;
}

/** The trailer's count, or undefined when the line is no trailer. */
export function svcTrailerCount(value: unknown): number | undefined {
  if (!isObject(value) || value.end !== true) return undefined;
  need(Number.isInteger(value.count), 'the trailer has no count');
  return value.count as number;
}

export function svcAdvisory(value: unknown): Advisory {
  need(isObject(value), 'the line is not an object');
  const { id, kind, slug } = value;
  need(typeof id === 'string' && id !== '', 'the advisory has no id');
  need(
    kind === 'plugin' || kind === 'theme' || kind === 'core',
    `advisory ${id}: kind must be plugin, theme or core`,
  );
  need(kind === 'core' || (typeof slug === 'string' && slug !== ''), `advisory ${id}: no slug`);
  need(
    typeof value.link === 'string' && /^https:\/\//.test(value.link),
    `advisory ${id}: link must be an https URL`,
  );
  need(
    optionalString(value.title) && optionalString(value.cve),
    `advisory ${id}: title and cve must be text`,
  );
  const { cvss } = value;
  need(
    cvss === undefined || (typeof cvss === 'number' && cvss >= 0 && cvss <= 10),
    `advisory ${id}: cvss must be a number from 0 to 10`,
  );
  need(
    Array.isArray(value.affected) && value.affected.length > 0,
    `advisory ${id}: affected must list ranges`,
  );
  const patched = value.patched ?? [];
  need(
    Array.isArray(patched) && patched.every((v) => typeof v === 'string'),
    `advisory ${id}: patched must list versions`,
  );
  const advisory: Advisory = {
    id,
    kind,
    slug: kind === 'core' ? 'wordpress' : (slug as string),
    title: (value.title as string | undefined) ?? id,
    link: value.link,
    affected: value.affected.map((range) => rangeOf(range, id)),
    patched: patched as string[],
  };
  if (typeof value.cve === 'string') advisory.cve = value.cve;
  if (typeof cvss === 'number') advisory.cvss = cvss;
  return advisory;
}
