import { describe, expect, it } from 'vitest';
import { FleetError, parseFleet, type SandboxProfile } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

const TAGGED = `
users:
  - { username: scoped, application_password: "scop SCOP scop SCOP scop SCOP", role: administrator, sites: [1] }
sites:
  - { id: 1, url: https://b-one.example.test/, tags: [production, shop], client: Acme }
  - { id: 2, url: https://a-two.example.test/, tags: [production], client: Acme }
  - { id: 3, url: https://c-three.example.test/, tags: [staging], client: Globex }
  - { id: 4, url: https://d-four.example.test/ }
`;

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('tag and client abilities (%s)', (profile) => {
  const sb = sandboxPer('suite', () => start({ profile, fleet: parseFleet(TAGGED, 'tagged.yaml') }));
  const api = client(sb);

  it('list-tags-v1 pages the tags with their sites_ids, numbered in order of appearance', async () => {
    const res = await api.ability('list-tags-v1', { per_page: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { id: 1, name: 'production', color: null, sites_count: 2, sites_ids: [1, 2] },
        { id: 2, name: 'shop', color: null, sites_count: 1, sites_ids: [1] },
      ],
      page: 1,
      per_page: 2,
      total: 3,
    });
    const second = await api.ability('list-tags-v1', { per_page: 2, page: 2 });
    expect(second.body.items).toEqual([
      { id: 3, name: 'staging', color: null, sites_count: 1, sites_ids: [3] },
    ]);
    const searched = await api.ability('list-tags-v1', { search: 'STAG' });
    expect(searched.body.items.map((t: { name: string }) => t.name)).toEqual(['staging']);
  });

  it('get-tag-sites-v1 pages a tag’s sites by URL; an unknown tag is 404', async () => {
    const res = await api.ability('get-tag-sites-v1', { tag_id: 1 });
    expect(res.body).toEqual({
      items: [
        {
          id: 2,
          url: 'https://a-two.example.test/',
          name: 'a-two.example.test',
          status: 'connected',
          client_id: 1,
        },
        {
          id: 1,
          url: 'https://b-one.example.test/',
          name: 'b-one.example.test',
          status: 'connected',
          client_id: 1,
        },
      ],
      page: 1,
      per_page: 20,
      total: 2,
    });
    const missing = await api.ability('get-tag-sites-v1', { tag_id: 9 });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'svc_tag_not_found', message: 'No tag found with ID 9.' });
  });

  it('list-clients-v1 and get-client-sites-v1 serve the clients; list-sites-v1 filters by tag and client', async () => {
    const clients = await api.ability('list-clients-v1', {});
    expect(clients.body.total).toBe(2);
    expect(clients.body.items.map((c: { id: number; name: string }) => `${c.id}:${c.name}`)).toEqual([
      '1:Acme',
      '2:Globex',
    ]);
    expect(clients.body.items[0]).toMatchObject({ email: '', suspended: 0, created: null });
    const sites = await api.ability('get-client-sites-v1', { client_id_or_email: 1 });
    expect(sites.body.items.map((s: { id: number }) => s.id)).toEqual([1, 2]);
    expect(sites.body.total).toBe(2);
    const missing = await api.ability('get-client-sites-v1', { client_id_or_email: 7 });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('svc_client_not_found');
    const byTag = await api.ability('list-sites-v1', { tag_id: 3 });
    expect(byTag.body.items.map((s: { id: number }) => s.id)).toEqual([3]);
    const byClient = await api.ability('list-sites-v1', { client_id: 1 });
    expect(byClient.body.items.map((s: { id: number }) => s.id)).toEqual([1, 2]);
  });

  it('a user limited to some sites sees only those in the tags’ sites', async () => {
    const scoped = `Basic ${Buffer.from('scoped:scop SCOP scop SCOP scop SCOP').toString('base64')}`;
    const res = await api.ability('list-tags-v1', {}, { auth: scoped });
    expect(res.body.items.map((t: { sites_ids: number[] }) => t.sites_ids)).toEqual([[1], [1], []]);
  });
});

describe('fleet file tags and clients', () => {
  it('reads tags and a client per site into records', () => {
    const fleet = parseFleet(TAGGED, 'tagged.yaml');
    expect(fleet.records?.tags.map((t) => t.name)).toEqual(['production', 'shop', 'staging']);
    expect(fleet.sites.map((s) => [s.tagIds ?? [], s.clientId])).toEqual([
      [[1, 2], 1],
      [[1], 1],
      [[3], 2],
      [[], null],
    ]);
  });

  it.each([
    ['sites:\n  - { url: https://a.test/, tags: production }\n', 'f.yaml:2: `tags` must be a list'],
    ['sites:\n  - url: https://a.test/\n    tags: [""]\n', 'f.yaml:3: a tag name must be a non-empty string'],
    ['sites:\n  - { url: https://a.test/, client: A, client_id: 2 }\n', 'f.yaml:2: give `client`'],
  ])('rejects bad tags and clients with file:line (%#)', (text, message) => {
    expect(() => parseFleet(text, 'f.yaml')).toThrow(FleetError);
    expect(() => parseFleet(text, 'f.yaml')).toThrow(message);
  });
});
