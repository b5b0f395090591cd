import type { SandboxContext } from '../context.js';
import { ok, type Reply, type SandboxRequest } from '../http-util.js';
import { isSite, param, restSite } from './params.js';
import { siteRecord } from './site-record.js';

const FLAGS = {
  ignore_core_updates: 'core',
  ignore_plugin_updates: 'plugins',
  ignore_theme_updates: 'themes',
} as const;

/** `1`/`0`, `true`/`false` as PHP reads them from JSON or the query. */
function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/**
 * `POST /sites/{id_or_domain}/edit`: the only way to clear the site-wide ignore flags
 * (`ignore_core_updates`, `ignore_plugin_updates`, `ignore_theme_updates`); `name` renames.
 */
export function editSite(ctx: SandboxContext, req: SandboxRequest, idOrDomain: string): Reply {
  const site = restSite(ctx, idOrDomain);
  if (!isSite(site)) return site;
  ctx.store.changeSite(site, (record) => {
    for (const [field, kind] of Object.entries(FLAGS)) {
      const value = param(req, field);
      if (value !== undefined) record.flags[kind] = truthy(value);
    }
    const name = param(req, 'name');
    if (typeof name === 'string' && name.trim() !== '') record.name = name.trim();
  });
  // MainWP 6.1.2 answers with the whole record as GET /sites/{id} shows it.
  return ok({ success: 1, data: siteRecord(site) });
}
