import { CORE_SLUG, type ItemKind } from '../../types.js';
import { parseErrors, parseKind, type WireError } from './common.js';
import { asList, badShape, decodeSlug, isObject, type Json, Reader } from './json.js';
import type { WireUpdated } from './writes.js';

export interface SiteRunResult {
  updated: WireUpdated[];
  errors: WireError[];
  /** Items the dashboard says it updated (the spec's translation result gives only a count). */
  count: number;
}

/**
 * Single-site update results in every shape (facts §7.10): `updated` as an array of entries, an
 * object (`{updated:{…}}` for core), or a boolean (spec core/translations); totals under
 * `summary.total_updated` or a top-level `total_updated`/`translations_updated`.
 */
export function parseSiteRunResult(
  body: Json | undefined,
  where: string,
  siteId: number,
  kind: ItemKind,
): SiteRunResult {
  const r = Reader.of(body, where);
  const errors = parseErrors(r.optionalArray('errors'), where);
  const raw = r.raw('updated');
  const updated: WireUpdated[] = [];
  if (typeof raw === 'boolean') {
    if (raw && kind === 'core') {
      const entry: WireUpdated = { siteId, kind, slug: CORE_SLUG };
      const from = r.optionalString('old_version');
      const to = r.optionalString('new_version');
      if (from !== undefined) entry.from = from;
      if (to !== undefined) entry.to = to;
      updated.push(entry);
    }
  } else {
    const list = isObject(raw) && Reader.of(raw, where, 'updated').has('slug') ? [raw] : asList(raw);
    if (!list) throw badShape(where, 'updated', 'a list, an entry or a boolean', raw);
    list.forEach((item, index) => {
      const e = Reader.of(item, where, `updated[${index}]`);
      const entry: WireUpdated = {
        siteId: e.optionalInt('site_id') ?? siteId,
        kind: e.has('type') ? parseKind(e.string('type'), where, e.field('type')) : kind,
        slug: decodeSlug(e.string('slug')),
      };
      const from = e.optionalString('old_version');
      const to = e.optionalString('new_version');
      if (from !== undefined) entry.from = from;
      if (to !== undefined) entry.to = to;
      updated.push(entry);
    });
  }
  const summary = r.has('summary') ? r.object('summary') : undefined;
  const count =
    summary?.optionalInt('total_updated') ??
    r.optionalInt('total_updated') ??
    r.optionalInt('translations_updated') ??
    updated.length;
  return { updated, errors, count };
}
