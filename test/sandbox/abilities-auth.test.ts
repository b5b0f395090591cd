import { describe, expect, it } from 'vitest';
import type { SandboxProfile } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { basic, client, start } from './helpers.js';

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('abilities API auth and catalogue (%s)', (profile) => {
  const sb = sandboxPer('suite', () => start({ profile }));
  const api = client(sb);

  it('accepts the admin application password with or without its display spaces', async () => {
    const spaced = await api.ability('list-sites-v1');
    const compact = await api.ability('list-sites-v1', undefined, {
      auth: basic('admin', sb.credentials.applicationPassword.replace(/ /g, '')),
    });
    expect(spaced.status).toBe(200);
    expect(compact.status).toBe(200);
    expect(compact.body.total).toBe(3);
  });

  it('refuses a wrong password (incorrect_password) and a wrongly cased username (invalid_username)', async () => {
    const wrong = await api.ability('list-sites-v1', undefined, {
      auth: basic('admin', 'nope nope nope nope nope nope'),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('incorrect_password');
    const cased = await api.ability('list-sites-v1', undefined, {
      auth: basic('Admin', sb.credentials.applicationPassword),
    });
    expect(cased.status).toBe(401);
    expect(cased.body).toMatchObject({ code: 'invalid_username', data: { status: 401 } });
  });

  it('ignores a bearer token on the abilities API (anonymous → 401)', async () => {
    const res = await api.ability('list-updates-v1', undefined, { auth: api.bearer });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: 'svc_permission_denied',
      message: 'You must be logged in to access this ability.',
      data: { status: 401 },
    });
  });

  it('gives a valid user without manage_options 403', async () => {
    const res = await api.ability('list-updates-v1', undefined, {
      auth: basic('editor', 'editEDITeditEDITeditEDIT'),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('svc_permission_denied');
  });

  it('denies a site outside the per-site access list', async () => {
    const scoped = basic('scoped', 'scop SCOP scop SCOP scop SCOP');
    const single = await api.ability(
      'update-site-core-v1',
      { site_id_or_domain: 2 },
      { method: 'POST', auth: scoped },
    );
    expect(single.status).toBe(403);
    expect(single.body.code).toBe('svc_access_denied');
    const multi = await api.ability('list-updates-v1', { site_ids_or_domains: [1, 2] }, { auth: scoped });
    expect(multi.status).toBe(200);
    expect(new Set(multi.body.updates.map((u: { site_id: number }) => u.site_id))).toEqual(new Set([1]));
  });

  it('serves the catalogue paged with X-WP-Total headers and a per_page cap of 100', async () => {
    const anonymous = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('rest_forbidden');
    const page = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities?per_page=10&page=2', {
      headers: { authorization: api.admin },
    });
    expect(page.status).toBe(200);
    // 15 update abilities, 7 site abilities (check-site-v1 among them), 2 tag and 2 client abilities.
    const total = Number(page.headers.get('x-wp-total'));
    expect(total).toBe(26);
    expect(page.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(total / 10)));
    expect(page.body).toHaveLength(10);
    const capped = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities?per_page=101', {
      headers: { authorization: api.admin },
    });
    expect(capped.status).toBe(400);
    const all = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities?per_page=100', {
      headers: { authorization: api.admin },
    });
    const byName = new Map(all.body.map((a: { name: string }) => [a.name, a]));
    const getSite = byName.get('svc/get-site-updates-v1') as { meta: { annotations: { readonly: boolean } } };
    const updateAll = byName.get('svc/update-all-v1') as { meta: { annotations: { destructive: boolean } } };
    expect(getSite.meta.annotations.readonly).toBe(profile === 'compat-6.1');
    expect(updateAll.meta.annotations.destructive).toBe(profile === 'spec');
    expect(
      all.body.every(
        (a: { input_schema: unknown; output_schema: unknown }) => a.input_schema && a.output_schema,
      ),
    ).toBe(true);
  });

  it('checks in the documented order: unknown ability, method, input schema', async () => {
    const unknown = await api.ability('no-such-ability-v1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('rest_ability_not_found');
    const method = await api.ability('list-updates-v1', {}, { method: 'POST' });
    expect(method.status).toBe(405);
    expect(method.body).toMatchObject({
      code: 'rest_ability_invalid_method',
      message: 'Read-only abilities require GET method.',
    });
    const anonymousBadInput = await api.ability('list-updates-v1', { page: 0 }, { auth: null });
    expect(anonymousBadInput.status).toBe(400);
    expect(anonymousBadInput.body.message).toBe(
      'Ability "svc/list-updates-v1" has invalid input. Reason: input[page] must be greater than or equal to 1',
    );
    const extra = await api.ability('list-sites-v1', { bogus: 1 });
    expect(extra.body.message).toMatch(/Reason: bogus is not a valid property of Object\.$/);
    const badEnum = await api.ability('list-updates-v1', { types: ['widgets'] });
    expect(badEnum.body.message).toMatch(
      /input\[types\]\[0\] is not one of core, plugins, themes, translations\.$/,
    );
    const missing = await api.ability('update-site-core-v1', {}, { method: 'POST' });
    expect(missing.body.message).toMatch(/site_id_or_domain is a required property of input\.$/);
  });

  it('caps list-updates-v1 per_page at 200', async () => {
    expect((await api.ability('list-updates-v1', { per_page: 200 })).status).toBe(200);
    const over = await api.ability('list-updates-v1', { per_page: 201 });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('ability_invalid_input');
  });

  it('answers malformed JSON with 400 rest_invalid_json, never a crash', async () => {
    const res = await api.raw('POST', '/wp-json/wp-abilities/v1/abilities/svc/run-updates-v1/run', {
      body: '{"input": [',
      headers: { authorization: api.admin, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_json');
  });
});
