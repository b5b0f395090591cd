import { describe, expect, it } from 'vitest';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('REST v2 global batch (%s)', (profile) => {
  const compat = profile === 'compat-6.1';
  const sb = sandboxPer('test', () => start({ profile }));
  const api = client(sb);

  it('accepts exactly 100 items and refuses 101 with 413 before anything runs', async () => {
    const before = (await api.control('GET', 'state')).body;
    const tags = Array.from({ length: 60 }, (_, i) => ({ name: `tag-${i}` }));
    const over = await api.rest('POST', 'batch', {
      tags: { create: tags, delete: [1] },
      sites: { suspend: [1, 2], sync: Array(38).fill(1) },
    });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      code: 'svc_rest_request_entity_too_large',
      message: 'Unable to accept more than 100 items for this request.',
      data: { status: 413 },
    });
    expect((await api.control('GET', 'state')).body).toEqual(before);
    const exact = await api.rest('PATCH', 'batch', {
      tags: { create: tags, update: [{ id: 1 }] },
      sites: { sync: Array(39).fill(1) },
    });
    expect(exact.status).toBe(200);
    expect(exact.body.tags.create).toHaveLength(60);
    expect(exact.body.tags.create[0]).toMatchObject({
      success: 1,
      message: 'Tag created successfully.',
      data: { id: 1, name: 'tag-0' },
    });
    expect('update' in exact.body.tags).toBe(false);
  });

  it('honours an adjusted limit', async () => {
    const small = await start({ profile, batchLimit: 2 });
    try {
      const res = await client(small).rest('POST', 'batch', { sites: { sync: [1, 2, 3] } });
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('Unable to accept more than 2 items for this request.');
    } finally {
      await small.close();
    }
  });

  it('runs sites.sync per numeric ID, skips 0 and non-numeric, reports unknown IDs', async () => {
    const res = await api.rest('POST', 'batch', { sites: { sync: [1, 0, 'two.example.test', 3, 77] } });
    expect(res.body.sites.sync).toEqual([
      {
        success: 1,
        data: { id: 1, url: 'https://one.example.test/', name: 'one.example.test', status: 'connected' },
      },
      { success: 0, data: [] },
      {
        id: 77,
        error: {
          code: 'svc_rest_invalid_site_id',
          message: 'Invalid or not found ID.',
          data: { status: 404 },
        },
      },
    ]);
  });

  it('creates sites (found_id for a known URL) and refuses updates.create per item', async () => {
    const res = await api.rest('PUT', 'batch', {
      sites: {
        create: [
          // The spec requires `name`; 6.1 derives it from the URL (see fidelity.test.ts).
          {
            url: 'https://new.example.test',
            admin: 'boss',
            uniqueid: 'u1',
            ...(compat ? {} : { name: 'new.example.test' }),
          },
          { url: 'https://one.example.test/', name: 'One', admin: 'a', adminpassword: 'p' },
          { url: 'x' },
        ],
      },
      updates: { create: [{}] },
      unknown: { create: [{}] },
    });
    expect(res.body.sites.create[0]).toMatchObject({
      success: 1,
      data: { id: 4, url: 'https://new.example.test/', name: 'new.example.test' },
    });
    expect(res.body.sites.create[1]).toMatchObject({ success: 0, found_id: 1 });
    expect(res.body.sites.create[2]).toMatchObject({ success: 0 });
    expect(res.body.updates.create[0]).toMatchObject({
      id: 0,
      error: { code: 'invalid-method', data: { status: 405 } },
    });
    expect('unknown' in res.body).toBe(false);
    expect((await api.ability('list-sites-v1')).body.total).toBe(4);
  });

  it('serves the controller batch routes under the same limit', async () => {
    const tags = await api.rest('POST', 'tags/batch', { create: [{ name: 'blue' }], delete: [3] });
    expect(tags.body.create[0]).toMatchObject({ success: 1, data: { id: 1, name: 'blue' } });
    const over = await api.rest('POST', 'clients/batch', {
      create: Array(60).fill({ name: 'c' }),
      update: Array(41).fill({ id: 1 }),
    });
    expect([over.status, over.body.code]).toEqual([413, 'svc_rest_request_entity_too_large']);
    const sites = await api.rest('PUT', 'sites/batch', { sync: [1] });
    expect(sites.body).toEqual(compat ? [] : {});
  });

  it('answers [] (compat) or {} (spec) when nothing ran', async () => {
    const res = await api.rest('POST', 'batch', { sites: { sync: [0] } });
    expect(res.body).toEqual(compat ? [] : {});
  });
});
