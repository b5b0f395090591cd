import { describe, expect, it } from 'vitest';
import type { AbilityInfo } from '../../src/sandbox/abilities/catalogue.js';
import { MemoryAuditSink, PROFILES, type SandboxProfile } from '../../src/sandbox/index.js';
import { OutputAudit } from '../../src/sandbox/output-audit.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

/** One valid input per ability (unknown sites included where a multi-site ability reports them). */
const SAMPLES: Record<string, Record<string, unknown>[]> = {
  'list-sites-v1': [{}, { status: 'disconnected' }],
  'get-site-v1': [{ site_id_or_domain: 1, include_stats: 1 }],
  'count-sites-v1': [{}],
  'get-sites-basic-v1': [{ per_page: 2 }],
  'get-site-plugins-v1': [{ site_id_or_domain: 2 }],
  'get-site-themes-v1': [{ site_id_or_domain: 1 }],
  'check-site-v1': [{ site_id_or_domain: 1 }, { site_id_or_domain: 3 }],
  'sync-sites-v1': [{ site_ids_or_domains: [1, 3, 99] }],
  'list-updates-v1': [{}, { site_ids_or_domains: [1, 999] }],
  'get-site-updates-v1': [{ site_id_or_domain: 1 }],
  'list-ignored-updates-v1': [{}],
  'set-ignored-updates-v1': [{ action: 'ignore', site_id_or_domain: 1, type: 'plugin', slug: 'hello.php' }],
  'ignore-site-core-v1': [{ site_id_or_domain: 2, action: 'add' }],
  'ignore-site-plugins-v1': [{ site_id_or_domain: 2, action: 'add', slugs: ['x.php'] }],
  'ignore-site-themes-v1': [{ site_id_or_domain: 2, action: 'remove', slugs: ['astra'] }],
  'update-site-plugins-v1': [{ site_id_or_domain: 2 }],
  'update-site-themes-v1': [{ site_id_or_domain: 1 }],
  'update-site-translations-v1': [{ site_id_or_domain: 1 }],
  'update-site-core-v1': [{ site_id_or_domain: 1 }],
  'run-updates-v1': [{ site_ids_or_domains: [1, 2, 3, 999], types: ['plugins'] }],
  'update-all-v1': [{ site_ids_or_domains: [2, 3, 'nowhere.test'] }],
  'unignore-site-updates-v1': [{ site_id_or_domain: 1, type: 'plugin', slugs: ['hello.php'], dry_run: true }],
  'list-clients-v1': [{}],
  'get-client-sites-v1': [{ client_id_or_email: 1 }],
  'list-tags-v1': [{}, { per_page: 1, page: 2 }],
  'get-tag-sites-v1': [{ tag_id: 1 }],
};

describe.each<SandboxProfile>([...PROFILES])(
  'every answer matches the published output schema (%s)',
  (profile) => {
    const sink = new MemoryAuditSink();
    const sb = sandboxPer('suite', () => start({ profile, outputAudit: sink }));
    const api = client(sb);

    it('calls every ability of the catalogue; the only mismatches are cited shipped behaviour', async () => {
      const all = await api.raw('GET', '/wp-json/wp-abilities/v1/abilities?per_page=100', {
        headers: { authorization: api.admin },
      });
      const next = profile === 'next';
      // A client and a tag for their abilities to answer about.
      const created = await api.rest('POST', 'batch', {
        clients: { create: [{ name: 'Acme' }] },
        tags: { create: [{ name: 'production' }] },
      });
      expect(created.status).toBe(200);
      for (const item of all.body as Array<{
        name: string;
        meta: { annotations: Record<string, boolean> };
      }>) {
        const name = item.name.replace(/^svc\//, '');
        if (name === 'get-batch-job-status-v1') continue;
        const { readonly, destructive, idempotent } = item.meta.annotations;
        const method = readonly ? 'GET' : destructive && idempotent ? 'DELETE' : 'POST';
        const samples = SAMPLES[name];
        expect(samples, `a sample input for ${name}`).toBeDefined();
        for (const input of samples ?? []) {
          // The next release's gated abilities (the updates and the unignore): preview, then
          // confirm, with the preview's token where it gives one.
          const gated = next && destructive;
          const first = await api.ability(name, gated ? { ...input, dry_run: true } : input, { method });
          expect(first.status, `${name} ${JSON.stringify(first.body)}`).toBe(200);
          if (gated) {
            const token = first.body.preview_token;
            const { dry_run: _preview, ...rest } = input;
            const run = await api.ability(
              name,
              { ...rest, confirm: true, ...(token === undefined ? {} : { preview_token: token }) },
              { method },
            );
            expect(run.status, `${name} confirm`).toBe(200);
          }
        }
      }
      const checked = [...sink.counts.keys()].map((key) => key.split(' ')[1]);
      expect(new Set(checked).size).toBe((all.body as unknown[]).length - 1);
      expect(sink.mismatches.filter((m) => !m.cited)).toEqual([]);
      if (next) {
        // Both answers of a gated ability were checked: the preview and the confirmed result.
        for (const name of ['run-updates-v1', 'update-all-v1', 'unignore-site-updates-v1'])
          expect(sink.counts.get(`next ${name}`), name).toBe(2);
      }
      if (profile === 'compat-6.1') {
        // An unknown site in a filter: site_url is the ID as sent (cited, dashboard-facts §3.3).
        expect(
          sink.mismatches.some((m) => m.ability === 'list-updates-v1' && m.cited?.includes('§3.3')),
        ).toBe(true);
      }
    });
  },
);

describe('the output audit', () => {
  it('reports an answer that breaks the schema, with its path', () => {
    const sink = new MemoryAuditSink();
    const audit = new OutputAudit('spec', sink);
    const ability = {
      name: 'x-v1',
      output: { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] },
    } as unknown as AbilityInfo;
    audit.check(ability, { status: 200, body: { total: 'three' } });
    audit.check(ability, { status: 200, json: '{"total":3}', body: undefined });
    audit.check(ability, { status: 400, body: { code: 'x' } });
    expect(sink.counts.get('spec x-v1')).toBe(2);
    expect(sink.mismatches).toEqual([
      { profile: 'spec', ability: 'x-v1', path: '/total', message: 'must be integer {"type":"integer"}' },
    ]);
  });
});
