import { CORE_SLUG } from '../../types.js';
import { asMap, decodeSlug, isObject, type Json, Reader } from './json.js';

/** What one REST per-site run route reported, per slug of the requested kind. */
export interface RestKindRun {
  updated: Array<{ slug: string; from?: string; to?: string }>;
  failed: Array<{ slug: string; message: string }>;
  /** The whole call did nothing (`success:0` at HTTP 200), with the dashboard's reason. */
  refused?: string;
}

/**
 * `POST /updates/{site}/update/{plugins|themes|translations}` (dashboard-facts §6.3):
 * `{success:1, data:{<slug>:{success:1,name,old_version,version}, <url-encoded slug>:{success:0,error}}}`,
 * `data` possibly `[]`; or `{success:0, message}` when nothing ran ("No Plugins to update.",
 * "Plugins ignored updates per site."). Keys are decoded before matching.
 */
export function parseRestKindRun(body: Json | undefined, where: string): RestKindRun {
  const r = Reader.of(body, where);
  if (!r.success()) return { updated: [], failed: [], refused: reasonOf(r) };
  const map = asMap(r.raw('data') ?? []) ?? [];
  const out: RestKindRun = { updated: [], failed: [] };
  for (const [rawSlug, item] of map) {
    const slug = decodeSlug(rawSlug);
    if (!isObject(item)) {
      out.failed.push({ slug, message: typeof item === 'string' ? item : 'no result for this item' });
      continue;
    }
    const e = Reader.of(item, where, `data.${rawSlug}`);
    // Only an item that says it succeeded is updated: one without the flag (an `error` alone, an
    // empty object) is not a success the dashboard reported.
    if (!e.has('success') || !e.success()) {
      out.failed.push({
        slug,
        message: e.has('success') || e.has('error') ? reasonOf(e) : 'no success flag for this item',
      });
      continue;
    }
    const from = e.optionalString('old_version');
    const to = e.optionalString('version') ?? e.optionalString('new_version');
    out.updated.push({ slug, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) });
  }
  return out;
}

/**
 * `POST /updates/{site}/update/wp`: `{success:1, message, data:{old_version, version}}`, or a
 * failure at HTTP 200 as `{success:0}` (the site's text is lost), `{success:0, error}` or
 * `{success:0, message}`.
 */
export function parseRestCoreRun(body: Json | undefined, where: string): RestKindRun {
  const r = Reader.of(body, where);
  if (!r.success()) return { updated: [], failed: [], refused: reasonOf(r) };
  const data = r.has('data') && isObject(r.raw('data')) ? r.object('data') : undefined;
  const from = data?.optionalString('old_version');
  const to = data?.optionalString('version') ?? data?.optionalString('new_version');
  return {
    updated: [
      { slug: CORE_SLUG, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) },
    ],
    failed: [],
  };
}

function reasonOf(r: Reader): string {
  const error = r.raw('error');
  const text = typeof error === 'string' ? error : r.optionalString('message');
  return text && text.trim() !== '' ? text : 'the dashboard reported a failure without a reason';
}
