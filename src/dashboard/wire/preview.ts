import type { ItemKind } from '../../types.js';
import { parseKind } from './common.js';
import { decodeSlug, type Json, Reader } from './json.js';

/** An item a gated dashboard left out of a run because an ignore holds it (dashboard-facts §9). */
export interface WireSkipped {
  siteId: number;
  kind: ItemKind;
  slug: string;
  /** `ignored_site`, `ignored_global`, `ignored_site_flag`, or whatever the dashboard says. */
  reason: string;
}

export interface RunPreview {
  items: Array<{ siteId: number; kind: ItemKind; slug: string }>;
  skipped: WireSkipped[];
  token?: string;
}

/** `skipped[]` items: `{site_id, type, slug, reason, …}`. */
export function parseSkipped(list: Json[], where: string, field = 'skipped', siteId?: number): WireSkipped[] {
  return list.map((item, index) => {
    const r = Reader.of(item, where, `${field}[${index}]`);
    return {
      siteId: siteId ?? r.int('site_id'),
      kind: parseKind(r.string('type'), where, r.field('type')),
      slug: decodeSlug(r.string('slug')),
      reason: r.optionalString('reason') ?? 'skipped',
    };
  });
}

/**
 * A gated update ability's dry run: `{dry_run:true, would_affect:{sites:[{site_id, items[],
 * skipped[]}], …}, preview_token?}`.
 */
export function parseRunPreview(body: Json | undefined, where: string): RunPreview {
  const r = Reader.of(body, where);
  const preview: RunPreview = { items: [], skipped: [] };
  r.object('would_affect')
    .array('sites')
    .forEach((site, index) => {
      const s = Reader.of(site, where, `would_affect.sites[${index}]`);
      const siteId = s.int('site_id');
      s.array('items').forEach((item, i) => {
        const e = Reader.of(item, where, `would_affect.sites[${index}].items[${i}]`);
        preview.items.push({
          siteId,
          kind: parseKind(e.string('type'), where, e.field('type')),
          slug: decodeSlug(e.string('slug')),
        });
      });
      preview.skipped.push(
        ...parseSkipped(s.optionalArray('skipped'), where, `would_affect.sites[${index}].skipped`, siteId),
      );
    });
  const token = r.has('preview_token') ? r.raw('preview_token') : undefined;
  if (typeof token === 'string' && token !== '') preview.token = token;
  return preview;
}
