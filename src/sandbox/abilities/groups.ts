import { canAccess, nsCode, type SandboxContext } from '../context.js';
import type { FleetSite, FleetUser, NamedRecord } from '../fleet-types.js';
import { errorReply, ok, type Reply } from '../http-util.js';
import { type AbilityCall, pageOf } from './call.js';
import { siteStatus } from './read.js';

/**
 * The tag and client abilities in their shipped shapes (MainWP 6.1.2): `list-tags-v1` carries
 * every tag's `sites_ids`, `get-tag-sites-v1` pages a tag's sites by URL, `list-clients-v1` pages
 * the clients, `get-client-sites-v1` answers one client's sites unpaged. Tags and clients are the
 * fleet's records (a fleet file's site `tags`/`client`, or created through the batch routes).
 */

function tagsOf(ctx: SandboxContext): NamedRecord[] {
  return ctx.store.fleet.records?.tags ?? [];
}

function clientsOf(ctx: SandboxContext): NamedRecord[] {
  return ctx.store.fleet.records?.clients ?? [];
}

/** The sites of a tag the user may see, in id order. */
function tagSites(ctx: SandboxContext, user: FleetUser, tagId: number): FleetSite[] {
  return ctx.store.sites().filter((site) => canAccess(user, site) && (site.tagIds ?? []).includes(tagId));
}

/** `include`/`exclude` id lists and a name `search`, as the tag and client listings filter. */
function listed(records: NamedRecord[], input: Record<string, unknown>): NamedRecord[] {
  const include = (input.include as number[] | undefined) ?? [];
  const exclude = (input.exclude as number[] | undefined) ?? [];
  const search = ((input.search as string | undefined) ?? '').toLowerCase();
  return records.filter(
    (r) =>
      (include.length === 0 || include.includes(r.id)) &&
      !exclude.includes(r.id) &&
      (search === '' || r.name.toLowerCase().includes(search)),
  );
}

export function siteItem(site: FleetSite): Record<string, unknown> {
  return { id: site.id, url: site.url, name: site.name, status: siteStatus(site), client_id: site.clientId };
}

export function listTags(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const page = (input.page as number | undefined) ?? 1;
  const perPage = (input.per_page as number | undefined) ?? 20;
  const tags = listed(tagsOf(ctx), input);
  const items = pageOf(tags, page, perPage).map((tag) => {
    const ids = tagSites(ctx, user, tag.id).map((site) => site.id);
    return {
      id: tag.id,
      name: tag.name,
      color: typeof tag.color === 'string' ? tag.color : null,
      sites_count: ids.length,
      sites_ids: ids,
    };
  });
  return ok({ items, page, per_page: perPage, total: tags.length });
}

export function getTagSites(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const tagId = input.tag_id as number;
  if (!tagsOf(ctx).some((tag) => tag.id === tagId))
    return errorReply(404, nsCode(ctx, 'tag_not_found'), `No tag found with ID ${tagId}.`);
  const page = (input.page as number | undefined) ?? 1;
  const perPage = (input.per_page as number | undefined) ?? 20;
  // The dashboard orders a tag's sites by URL.
  const sites = tagSites(ctx, user, tagId).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return ok({
    items: pageOf(sites, page, perPage).map(siteItem),
    page,
    per_page: perPage,
    total: sites.length,
  });
}

function clientItem(client: NamedRecord): Record<string, unknown> {
  const text = (key: string) => (typeof client[key] === 'string' ? client[key] : '');
  return {
    id: client.id,
    name: client.name,
    email: text('email'),
    phone: text('phone'),
    address_1: text('address_1'),
    address_2: text('address_2'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    country: text('country'),
    note: text('note'),
    suspended: client.suspended === 1 || client.suspended === true ? 1 : 0,
    created: null,
    facebook: text('facebook'),
    twitter: text('twitter'),
    instagram: text('instagram'),
    linkedin: text('linkedin'),
  };
}

export function listClients(ctx: SandboxContext, { input }: AbilityCall): Reply {
  const page = (input.page as number | undefined) ?? 1;
  const perPage = (input.per_page as number | undefined) ?? 20;
  const status = (input.status as string | undefined) ?? 'any';
  const clients = listed(clientsOf(ctx), input)
    .map(clientItem)
    .filter((c) => status === 'any' || (c.suspended === 1) === (status === 'suspended'));
  return ok({ items: pageOf(clients, page, perPage), page, per_page: perPage, total: clients.length });
}

export function getClientSites(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const key = input.client_id_or_email;
  const client = clientsOf(ctx).find((c) =>
    typeof key === 'number' || /^\d+$/.test(String(key)) ? c.id === Number(key) : c.email === key,
  );
  if (!client) {
    const message =
      typeof key === 'number' || /^\d+$/.test(String(key))
        ? `No client found with ID ${String(key)}.`
        : `No client found with email "${String(key)}".`;
    return errorReply(404, nsCode(ctx, 'client_not_found'), message);
  }
  const sites = ctx.store.sites().filter((site) => canAccess(user, site) && site.clientId === client.id);
  return ok({ items: sites.map(siteItem), total: sites.length });
}
