import type { SandboxContext } from '../context.js';
import { errorReply, ok, type Reply, type SandboxRequest } from '../http-util.js';
import { isSite, listParam, param, restSite } from './params.js';

/** `POST /updates/{id_or_domain}/ignore/wp`: sets the site-wide flag `is_ignoreCoreUpdates`. */
export function ignoreWp(ctx: SandboxContext, idOrDomain: string): Reply {
  const site = restSite(ctx, idOrDomain);
  if (!isSite(site)) return site;
  ctx.store.changeSite(site, (record) => {
    record.flags.core = true;
  });
  return ok({ success: 1, message: 'Ignore core update successfully.' });
}

/**
 * `POST /updates/{id_or_domain}/ignore/{plugins|themes}`. Without `slug`: the site-wide flag.
 * With `slug` and `restIgnoreSlugIndexBug`: the shipped bug stores list indices as keys (Name =
 * slug), so the slug itself stays unignored. There is no REST unignore.
 */
export function ignoreItems(
  ctx: SandboxContext,
  req: SandboxRequest,
  idOrDomain: string,
  kind: 'plugins' | 'themes',
): Reply {
  const site = restSite(ctx, idOrDomain);
  if (!isSite(site)) return site;
  const slugs = listParam(param(req, 'slug'));
  if (slugs.length === 0) {
    ctx.store.changeSite(site, (record) => {
      record.flags[kind] = true;
    });
    const message = `Ignore update ${kind} per site successfully.`;
    // The spec's reply is `{success, message}`; release 6.1 adds the site's `url` (facts §6.3).
    return ok(
      ctx.quirks.restIgnoreReplyUrl ? { success: 1, message, url: site.url } : { success: 1, message },
    );
  }
  if (slugs.some((slug) => slug.length > 300))
    return errorReply(400, 'rest_invalid_param', 'Invalid parameter(s): slug');
  const added: string[] = ctx.store.changeSite(site, (record) => {
    const list = record.ignores[kind];
    const results: string[] = [];
    slugs.forEach((slug, index) => {
      const key = ctx.quirks.restIgnoreSlugIndexBug ? String(index) : slug;
      if (list.some((entry) => entry.slug === key)) return;
      list.push({ slug: key, name: slug, versions: 'all' });
      results.push('success');
    });
    return results;
  });
  if (ctx.quirks.restIgnoreSlugIndexBug) return ok({ success: 1, data: added, url: site.url });
  return ok({ success: 1, message: `Ignore update ${kind} successfully.` });
}
