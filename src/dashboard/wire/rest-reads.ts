import { CORE_SLUG, type Site, type SiteStatus } from '../../types.js';
import { siteUrl } from './common.js';
import { asList, asMap, badShape, decodeSlug, isObject, type Json, own, Reader } from './json.js';
import { parseUpdateEntry, type WireIgnore, type WireUpdate } from './reads.js';

/**
 * REST bodies are `{success, data}`; `success:0` at HTTP 200 is a failure, and a body without
 * `data` is not an answer at all (an error object or a PHP error page served with 200): never
 * read as an empty listing.
 */
export function restData(body: Json | undefined, where: string): Json | undefined {
  const r = Reader.of(body, where);
  if (r.has('success') && !r.success()) {
    throw badShape(
      where,
      'success',
      '1 (the dashboard reported a failure)',
      r.optionalString('message') ?? 0,
    );
  }
  // `data: null` is an empty listing (dashboard-facts §7.5); no `data` at all is no listing.
  if (r.raw('data') === undefined)
    throw badShape(where, 'data', 'the listing', r.optionalString('message') ?? undefined);
  return r.raw('data');
}

/** `GET /sites`: a list (or numeric-key object) of site records; null or `[]` when there are none. */
export function parseRestSites(data: Json | undefined, where: string): Site[] {
  const list = data === null ? [] : asList(data);
  if (list === undefined) throw badShape(where, 'data', 'a list of sites', data);
  return list.map((item, index) => {
    const s = Reader.of(item, where, `data[${index}]`);
    const url = siteUrl(s.string('url'));
    return { id: s.int('id'), url, name: s.optionalString('name') ?? url, status: restStatus(s) };
  });
}

function restStatus(s: Reader): SiteStatus {
  const status = s.optionalString('status');
  if (status === 'connected' || status === 'disconnected' || status === 'suspended') return status;
  const on = (key: string) => ['1', 'true'].includes(String(s.raw(key)));
  if (on('suspended')) return 'suspended';
  if (on('offline') || status === 'offline') return 'disconnected';
  return 'connected';
}

/**
 * `GET /updates` in any of its shapes: the map `site_id → kind → slug → entry`, a flat list of
 * update entries, or an object with numeric keys standing in for that list.
 */
export function parseRestUpdates(data: Json | undefined, where: string): WireUpdate[] {
  if (data === null || data === undefined) return [];
  const entries = Array.isArray(data) ? [] : asMap(data);
  if (entries === undefined) throw badShape(where, 'data', 'a map or list of updates', data);
  const flat =
    entries.length > 0 &&
    entries.every(([, v]) => isObject(v) && own(v, 'slug') !== undefined && own(v, 'type') !== undefined);
  if (Array.isArray(data) || flat) {
    return (asList(data) ?? []).map((item, index) => parseUpdateEntry(item, where, 'data', index));
  }
  const out: WireUpdate[] = [];
  for (const [siteKey, value] of entries) {
    if (!/^\d+$/.test(siteKey)) throw badShape(where, `data.${siteKey}`, 'a site ID key', siteKey);
    out.push(...parseSiteUpdateMap(Number(siteKey), value, where, `data.${siteKey}`));
  }
  return out;
}

/** One site's `{wp, plugins, themes, translations}` map. */
export function parseSiteUpdateMap(siteId: number, value: Json, where: string, path: string): WireUpdate[] {
  const s = Reader.of(value, where, path);
  const out: WireUpdate[] = [];
  const wp = s.raw('wp');
  // `wp` may be {current,new}, [] or even `true` (no versions to act on): only the first is an update.
  if (isObject(wp) && own(wp, 'new')) {
    const c = Reader.of(wp, where, s.field('wp'));
    out.push({
      siteId,
      kind: 'core',
      slug: CORE_SLUG,
      name: 'WordPress',
      from: c.optionalString('current') ?? '',
      to: c.string('new'),
    });
  }
  for (const [key, kind] of [
    ['plugins', 'plugin'],
    ['themes', 'theme'],
  ] as const) {
    const map = asMap(s.raw(key) ?? []);
    if (!map) throw badShape(where, s.field(key), 'a map of slugs', s.raw(key));
    for (const [rawSlug, entry] of map) {
      const e = Reader.of(entry, where, `${s.field(key)}.${rawSlug}`);
      const update = e.has('update') ? e.object('update') : undefined;
      const to =
        update?.optionalString('new_version') ?? e.optionalString('new_version') ?? e.optionalString('to');
      // As in the abilities listing: a plugin or theme update names the version it goes to.
      if (to === undefined || to === '')
        throw badShape(where, e.field('update.new_version'), 'a version', to);
      const slug = decodeSlug(rawSlug);
      out.push({
        siteId,
        kind,
        slug,
        to,
        name: e.optionalString('Name') ?? e.optionalString('name') ?? slug,
        from: e.optionalString('Version') ?? e.optionalString('current_version') ?? '',
      });
    }
  }
  const translations = asList(s.raw('translations') ?? []);
  if (translations === undefined)
    throw badShape(where, s.field('translations'), 'a list of translations', s.raw('translations'));
  translations.forEach((entry, index) => {
    const t = Reader.of(entry, where, `${s.field('translations')}[${index}]`);
    const slug = decodeSlug(t.string('slug'));
    out.push({
      siteId,
      kind: 'translation',
      slug,
      name: t.optionalString('name') ?? slug,
      from: t.optionalString('version') ?? '',
      to: '',
    });
  });
  return out;
}

/** `GET /updates/ignored` and `/updates/{id}/ignored`: `{plugins:{slug:{Name, ignored_versions}|name}, themes:{…}}`. */
/** An ignore stored under a list index instead of its slug (MainWP 6.1.2's REST per-slug ignore). */
export interface RestIndexEntry {
  kind: 'plugin' | 'theme';
  /** The stored key, `0` for the first slug of the request that made it. */
  stored: string;
  /** Its `Name`: the slug the request meant, as MainWP 6.1.2 stores it. */
  name: string;
}

/** Keys PHP turns into integers: such a slug is a list index, never a plugin or theme folder. */
const INDEX_KEY = /^(0|-?[1-9]\d{0,17})$/;

/**
 * A REST ignored listing's entries. With `indexEntries`, entries stored under a list index are
 * collected there instead of read as ignores of a slug `0` (broken-ignores.ts).
 */
export function parseRestIgnored(
  siteId: number,
  data: Json | undefined,
  where: string,
  indexEntries?: RestIndexEntry[],
): WireIgnore[] {
  if (data === null || data === undefined) return [];
  const r = Reader.of(Array.isArray(data) && data.length === 0 ? {} : data, where, 'data');
  const out: WireIgnore[] = [];
  for (const [key, kind] of [
    ['plugins', 'plugin'],
    ['themes', 'theme'],
  ] as const) {
    const raw = r.raw(key) ?? [];
    // PHP writes a map whose keys are 0, 1, … as a list: only index entries look like that.
    const map =
      indexEntries && Array.isArray(raw)
        ? raw.map((entry, i): [string, Json] => [String(i), entry])
        : asMap(raw);
    if (!map) throw badShape(where, r.field(key), 'a map of slugs', r.raw(key));
    for (const [rawSlug, entry] of map) {
      if (indexEntries && INDEX_KEY.test(rawSlug)) {
        const name = isObject(entry) ? own(entry, 'Name') : undefined;
        indexEntries.push({ kind, stored: rawSlug, name: typeof name === 'string' ? name : '' });
        continue;
      }
      const versions = isObject(entry) ? asList(own(entry, 'ignored_versions')) : undefined;
      const list = (versions ?? []).map(String).filter((v) => v !== '');
      out.push({
        siteId,
        kind,
        slug: decodeSlug(rawSlug),
        versions: list.length === 0 || list.includes('all_versions') ? 'all' : [...new Set(list)].sort(),
      });
    }
  }
  return out;
}
