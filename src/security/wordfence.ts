/**
 * One record of the Wordfence Intelligence vulnerability data feed (v3; production and scanner
 * share the shape) → the advisories it states, one per affected software entry:
 *
 *   {"id": "…", "title": "…", "software": [{"type": "plugin" | "theme" | "core", "slug": "…",
 *     "affected_versions": {"<label>": {"from_version": "1.0", "from_inclusive": true,
 *       "to_version": "1.2.3", "to_inclusive": true}}, "patched": true,
 *     "patched_versions": ["1.2.4"]}], "cve": "CVE-…" | null,
 *     "cvss": {"vector": "…", "score": 9.8, "rating": "Critical"} | null, "references": ["https://…"]}
 *
 * `*` as a version is an open end. Fields the planner does not use are not read. A record whose
 * used fields have the wrong shape is refused (the caller names the byte offset), never skipped:
 * every entry is checked, also those `keep` drops, so a prefilter never hides a broken feed.
 */
import type { Advisory, VersionRange } from '../types.js';

type Obj = Record<string, unknown>;

const KINDS: Record<string, Advisory['kind']> = { plugin: 'plugin', theme: 'theme', core: 'core' };

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export class RecordError extends Error {}

function need(condition: boolean, message: string): asserts condition {
  if (!condition) throw new RecordError(message);
}

function range(value: unknown, label: string): VersionRange {
  need(isObject(value), `affected_versions "${label}" is not an object`);
  const { from_version, from_inclusive, to_version, to_inclusive } = value;
  need(
    typeof from_version === 'string' && typeof to_version === 'string',
    `affected_versions "${label}" lacks from_version or to_version`,
  );
  need(
    typeof from_inclusive === 'boolean' && typeof to_inclusive === 'boolean',
    `affected_versions "${label}" lacks from_inclusive or to_inclusive`,
  );
  return { from: from_version, fromInclusive: from_inclusive, to: to_version, toInclusive: to_inclusive };
}

/** A link a person can open: the record's first https reference, else its Wordfence page. */
function linkOf(record: Obj, id: string): string {
  const references = Array.isArray(record.references) ? record.references : [];
  const https = references.find(
    (ref): ref is string => typeof ref === 'string' && ref.startsWith('https://'),
  );
  return https ?? `https://www.wordfence.com/threat-intel/vulnerabilities/id/${encodeURIComponent(id)}`;
}

function cvssOf(record: Obj): number | undefined {
  if (!isObject(record.cvss)) return undefined;
  const score = typeof record.cvss.score === 'string' ? Number(record.cvss.score) : record.cvss.score;
  return typeof score === 'number' && Number.isFinite(score) && score >= 0 && score <= 10 ? score : undefined;
}

/** Which items' advisories a reader keeps (the fleet's); the others are checked and dropped. */
export type FeedFilter = (kind: Advisory['kind'], slug: string) => boolean;

export function wordfenceAdvisories(record: unknown, keep?: FeedFilter): Advisory[] {
  need(isObject(record), 'the record is not an object');
  const { id, software } = record;
  need(typeof id === 'string' && id !== '', 'the record has no id');
  need(Array.isArray(software), `record ${id}: software is not a list`);
  const out: Advisory[] = [];
  for (const entry of software) {
    need(isObject(entry), `record ${id}: a software entry is not an object`);
    const kind = typeof entry.type === 'string' ? KINDS[entry.type] : undefined;
    if (!kind) continue;
    need(kind === 'core' || typeof entry.slug === 'string', `record ${id}: a ${kind} without a slug`);
    const slug = kind === 'core' ? 'wordpress' : (entry.slug as string);
    need(isObject(entry.affected_versions), `record ${id}: ${slug} has no affected_versions object`);
    const affected = Object.entries(entry.affected_versions).map(([label, value]) => range(value, label));
    const patchedList = entry.patched_versions ?? [];
    need(
      Array.isArray(patchedList) && patchedList.every((v) => typeof v === 'string'),
      `record ${id}: ${slug} patched_versions is not a list of versions`,
    );
    if (keep && !keep(kind, slug)) continue;
    out.push(advisoryOf(record, id, { kind, slug, affected, patched: patchedList as string[] }));
  }
  return out;
}

/** The advisory of one kept entry; the record's shared fields are read only for kept entries. */
function advisoryOf(
  record: Obj,
  id: string,
  entry: Pick<Advisory, 'kind' | 'slug' | 'affected' | 'patched'>,
): Advisory {
  const { kind, slug, affected, patched } = entry;
  const title = typeof record.title === 'string' ? record.title : id;
  const link = linkOf(record, id);
  const advisory: Advisory = { id, kind, slug, title, link, affected, patched };
  const cve = typeof record.cve === 'string' && record.cve !== '' ? record.cve : undefined;
  if (cve !== undefined) advisory.cve = cve;
  const cvss = cvssOf(record);
  if (cvss !== undefined) advisory.cvss = cvss;
  return advisory;
}
