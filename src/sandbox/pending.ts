import type { SandboxContext } from './context.js';
import { displayName } from './fleet-names.js';
import { errorReply, ok, type Reply } from './http-util.js';

const KINDS = ['core', 'plugin', 'theme', 'translation'];

/**
 * `POST /__sandbox/pending` adds or changes a pending update (a new release);
 * `DELETE /__sandbox/pending` removes one as if it had been applied by hand (the installed
 * version moves to the pending one). Body: `{site, kind, slug, from?, to, name?, language?}`.
 */
export function changePending(
  ctx: SandboxContext,
  mode: 'add' | 'remove',
  input: Record<string, unknown>,
): Reply {
  const site = input.site === undefined ? undefined : ctx.store.resolve(input.site as string | number);
  if (!site)
    return errorReply(
      404,
      'sandbox_unknown_site',
      `No site ${String(input.site)} (send "site": id or domain).`,
    );
  const kind = String(input.kind ?? '');
  if (!KINDS.includes(kind))
    return errorReply(400, 'sandbox_invalid_kind', `"kind" must be one of ${KINDS.join(', ')}.`);
  const slug = String(input.slug ?? (kind === 'core' ? 'wordpress' : ''));
  const to = input.to === undefined ? undefined : String(input.to);
  const from = input.from === undefined ? undefined : String(input.from);
  if (slug === '') return errorReply(400, 'sandbox_invalid_slug', '"slug" is required.');
  if (mode === 'add' && !to && kind !== 'translation')
    return errorReply(400, 'sandbox_invalid_version', '"to" (the new version) is required.');
  const changed = ctx.store.changeSite(site, (record): boolean => {
    if (kind === 'core') {
      if (mode === 'add') record.core = { current: from ?? record.core.current, new: to ?? null };
      else if (record.core.new) record.core = { current: record.core.new, new: null };
      else return false;
      return true;
    }
    if (kind === 'translation') {
      const language = String(input.language ?? 'de_DE');
      const index = record.translations.findIndex((t) => t.slug === slug && t.language === language);
      if (mode === 'remove') {
        if (index >= 0) record.translations.splice(index, 1);
        return index >= 0;
      }
      if (index < 0)
        record.translations.push({
          slug,
          language,
          version: from ?? to ?? '1.0',
          name: String(input.name ?? displayName(slug)),
        });
      return index < 0;
    }
    const list = kind === 'plugin' ? record.plugins : record.themes;
    const item = list.find((i) => i.slug === slug);
    if (mode === 'remove') {
      if (!item?.update) return false;
      item.version = item.update;
      item.update = null;
      return true;
    }
    if (item) {
      item.update = to ?? null;
      if (from) item.version = from;
    } else {
      list.push({
        slug,
        name: String(input.name ?? displayName(slug)),
        version: from ?? '1.0.0',
        update: to ?? null,
      });
    }
    return true;
  });
  return ok({ changed, site_id: site.id, kind, slug });
}

/**
 * `POST /__sandbox/outside-update`: an update done on the child site outside the dashboard
 * (`{site, kind: core|plugin|theme, slug, version?}`, version default = the pending one). The
 * dashboard keeps listing what its last sync saw until a sync (REST `/batch` `sites.sync` or
 * `sync-sites-v1`) picks the change up (dashboard-facts §6.3, §10).
 */
export function outsideUpdate(ctx: SandboxContext, input: Record<string, unknown>): Reply {
  const site = input.site === undefined ? undefined : ctx.store.resolve(input.site as string | number);
  if (!site)
    return errorReply(
      404,
      'sandbox_unknown_site',
      `No site ${String(input.site)} (send "site": id or domain).`,
    );
  const kind = String(input.kind ?? '');
  if (kind !== 'core' && kind !== 'plugin' && kind !== 'theme')
    return errorReply(400, 'sandbox_invalid_kind', '"kind" must be one of core, plugin, theme.');
  const slug = kind === 'core' ? 'wordpress' : String(input.slug ?? '');
  const item =
    kind === 'core'
      ? undefined
      : (kind === 'plugin' ? site.plugins : site.themes).find((i) => i.slug === slug);
  const pending = kind === 'core' ? site.core.new : item?.update;
  const version = input.version === undefined ? pending : String(input.version);
  if (kind !== 'core' && !item)
    return errorReply(404, 'sandbox_unknown_item', `Site ${site.id} has no ${kind} ${slug}.`);
  if (!version)
    return errorReply(400, 'sandbox_invalid_version', '"version" is required when nothing is pending.');
  // Stored data is untouched on purpose (the listings stay stale); only the next sync applies this.
  site.unsynced = [
    ...(site.unsynced ?? []).filter((c) => !(c.type === kind && c.slug === slug)),
    { type: kind, slug, version },
  ];
  ctx.store.touch();
  return ok({ recorded: true, site_id: site.id, kind, slug, version });
}
