import type { IgnorableKind, ItemKind } from '../../types.js';
import { badShape, type Json, Reader } from './json.js';

const KINDS: Record<string, ItemKind> = {
  core: 'core',
  wp: 'core',
  plugin: 'plugin',
  plugins: 'plugin',
  theme: 'theme',
  themes: 'theme',
  translation: 'translation',
  translations: 'translation',
};

/** Item kind from the singular (abilities) or plural (REST) spelling. */
export function parseKind(value: string, where: string, field: string): ItemKind {
  const kind = KINDS[value];
  if (!kind || !Object.hasOwn(KINDS, value))
    throw badShape(where, field, 'core/plugin/theme/translation', value);
  return kind;
}

export function isIgnorable(kind: ItemKind): kind is IgnorableKind {
  return kind !== 'translation';
}

/** The plural spelling the abilities use in `types`. */
export function typesValue(kind: ItemKind): string {
  return kind === 'core' ? 'core' : `${kind}s`;
}

/** Site URLs as the dashboard stores them: absolute with a trailing slash. */
export function siteUrl(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * One `errors[]` entry. For resolution and access errors the dashboard sends `site_id` 0 and the
 * identifier as sent in `site_url` (an ID string or a domain); the ID is recovered from it.
 */
export interface WireError {
  siteId: number;
  siteRef: string;
  kind?: ItemKind;
  slug?: string;
  code: string;
  message: string;
}

export function parseErrors(list: Json[], where: string, field = 'errors'): WireError[] {
  return list.map((item, index) => {
    const r = Reader.of(item, where, `${field}[${index}]`);
    const ref = r.optionalString('site_url') ?? '';
    let siteId = r.optionalInt('site_id') ?? 0;
    if (siteId === 0 && /^\d+$/.test(ref)) siteId = Number(ref);
    const type = r.optionalString('type');
    const slug = r.optionalString('slug');
    const out: WireError = {
      siteId,
      siteRef: ref,
      code: r.optionalString('code') ?? 'unknown_error',
      message: r.optionalString('message') ?? '',
    };
    if (type && type !== 'site' && Object.hasOwn(KINDS, type))
      out.kind = parseKind(type, where, r.field('type'));
    if (slug) out.slug = slug;
    return out;
  });
}
