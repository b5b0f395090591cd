import { SvcError } from '../../errors.js';
import type { LiveGroupNames, LiveState, Site } from '../../types.js';
import type { ReadLiveOptions } from '../client.js';
import { Reader as Json } from '../wire/json.js';
import { type Reader, readListing } from './listing.js';

/**
 * The dashboard's tags and clients, read only for the kinds the desired state selects by
 * (`ReadLiveOptions.groups`). Tags: one paged read of `list-tags-v1`, whose items carry their
 * sites' IDs (`sites_ids`). Clients: one paged read of `list-clients-v1` for the names, then
 * `get-client-sites-v1` (unpaged) for each client the desired state names and the dashboard has;
 * the site listing's `client_id` is not used, as a REST key reads the sites from REST `GET /sites`.
 */
export interface GroupMembership {
  names: LiveGroupNames;
  tags: Map<number, string[]>;
  clients: Map<number, string>;
}

interface Named {
  id: number;
  name: string;
  siteIds: number[];
}

function parseNamed(body: unknown, where: string, withSites: boolean) {
  const r = Json.of(body, where);
  const items = r.array('items').map((item, index): Named => {
    const s = Json.of(item, where, `items[${index}]`);
    const siteIds = withSites ? s.optionalArray('sites_ids').map((id) => Number(id)) : [];
    return { id: s.int('id'), name: s.string('name'), siteIds };
  });
  return { items, total: r.int('total'), errors: [] };
}

function requireAbility(read: Reader, ability: string): void {
  if (read.caller.info(ability)) return;
  throw new SvcError(
    'UNSUPPORTED',
    `the desired state selects sites by ${ability.startsWith('list-tags') ? 'tag' : 'client'}, but the dashboard does not offer ${ability}`,
    {
      hint: 'update the dashboard, or select these sites by ID, domain or glob',
    },
  );
}

export async function readGroups(
  read: Reader,
  wanted: NonNullable<ReadLiveOptions['groups']>,
): Promise<GroupMembership> {
  const membership: GroupMembership = { names: {}, tags: new Map(), clients: new Map() };
  const reads: Promise<void>[] = [];
  const tags = wanted.tags === 'if-offered' ? read.caller.info('list-tags-v1') !== undefined : wanted.tags;
  // A stage asked for but not read needs no request: the read's progress total stays known.
  if (wanted.tags && !tags) read.progress.expect('tags', 0);
  if (tags) {
    requireAbility(read, 'list-tags-v1');
    reads.push(
      readListing(read, 'list-tags-v1', {}, 'tags', (body, where) => parseNamed(body, where, true)).then(
        ({ items }) => {
          membership.names.tags = items.map((tag) => tag.name);
          for (const tag of items)
            for (const id of tag.siteIds) {
              const list = membership.tags.get(id);
              if (list) list.push(tag.name);
              else membership.tags.set(id, [tag.name]);
            }
        },
      ),
    );
  }
  if (wanted.clients) {
    requireAbility(read, 'list-clients-v1');
    const named = new Set(wanted.clients);
    reads.push(
      readListing(read, 'list-clients-v1', {}, 'clients', (body, where) =>
        parseNamed(body, where, false),
      ).then(async ({ items }) => {
        membership.names.clients = items.map((client) => client.name);
        const picked = items.filter((client) => named.has(client.name));
        if (picked.length > 0) requireAbility(read, 'get-client-sites-v1');
        await Promise.all(
          picked.map(async (client) => {
            const body = await read.caller.call(
              'get-client-sites-v1',
              { client_id_or_email: client.id },
              read.signal,
            );
            const r = Json.of(body, 'ability get-client-sites-v1');
            for (const [index, item] of r.array('items').entries())
              membership.clients.set(
                Json.of(item, 'ability get-client-sites-v1', `items[${index}]`).int('id'),
                client.name,
              );
          }),
        );
      }),
    );
  }
  await Promise.all(reads);
  return membership;
}

/** The live state with each site's tags and client, and the names read. */
export function withGroups(live: LiveState, membership: GroupMembership): LiveState {
  const sites = live.sites.map((site): Site => {
    const tags = membership.tags.get(site.id);
    const client = membership.clients.get(site.id);
    if (!tags && client === undefined) return site;
    return { ...site, ...(tags ? { tags } : {}), ...(client === undefined ? {} : { client }) };
  });
  return { ...live, sites, groups: membership.names };
}
