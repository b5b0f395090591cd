import { describe, expect, it } from 'vitest';
import { parseFleet, type SandboxProfile } from '../../src/sandbox/index.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { client, start } from './helpers.js';

/**
 * Review of the sandbox against its documents: each test pins one line of
 * dashboard-facts.md (compat-6.1) or spec/dashboard-interface.md (spec) that the sandbox
 * used to get wrong.
 */

/** Site 1 has a pending plugin, site 2 is offline with nothing pending, site 3 has an old connector. */
const FLEET = `
sites:
  - id: 1
    url: https://one.example.test/
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
  - id: 2
    url: https://two.example.test/
    status: offline
  - id: 3
    url: https://three.example.test/
    connector: "3.9"
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
    themes:
      astra: 4.11.1 -> 4.11.3
`;

const fleet = () => parseFleet(FLEET, 'fidelity.yaml');

describe('update-all-v1 errors[] (compat-6.1)', () => {
  const sb = sandboxPer('test', () => start({ profile: 'compat-6.1', fleet: fleet() }));
  const api = client(sb);

  // Facts §3.3: "`site_name` appears in list-updates, list-ignored-updates and update-all, not in
  // run-updates." and §3.5: "an outdated site connector yields one error per pending item".
  it('gives item errors the site_name as well as site errors, and run-updates-v1 neither', async () => {
    const all = await api.ability('update-all-v1', { site_ids_or_domains: [2, 3] }, { method: 'POST' });
    expect(all.status).toBe(200);
    expect(all.body.errors).toEqual([
      {
        site_id: 2,
        site_url: 'https://two.example.test/',
        site_name: 'two.example.test',
        type: 'site',
        slug: '',
        code: 'svc_site_offline',
        message: 'Site is known to be offline.',
      },
      {
        site_id: 3,
        site_url: 'https://three.example.test/',
        site_name: 'three.example.test',
        type: 'plugin',
        slug: 'akismet/akismet.php',
        code: 'svc_child_outdated',
        message: 'Child plugin version 4.0 or higher required.',
      },
      {
        site_id: 3,
        site_url: 'https://three.example.test/',
        site_name: 'three.example.test',
        type: 'theme',
        slug: 'astra',
        code: 'svc_child_outdated',
        message: 'Child plugin version 4.0 or higher required.',
      },
    ]);
    const run = await api.ability('run-updates-v1', { site_ids_or_domains: [2, 3] }, { method: 'POST' });
    expect(run.body.errors).toHaveLength(3);
    for (const error of run.body.errors) expect('site_name' in error).toBe(false);
  });
});

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('run-updates-v1 with no sites (%s)', (profile) => {
  const compat = profile === 'compat-6.1';

  // Spec §4.2: run-updates-v1 `site_ids_or_domains` "array default [] (empty = all sites with
  // updates)"; facts §3.4: "`site_ids_or_domains` ([] = every site of the user)" and §3.5
  // "offline sites go to `errors[]` and are skipped".
  it('runs on the sites with updates (spec) or on every site of the user (compat)', async () => {
    const sb = await start({ profile, fleet: fleet() });
    try {
      const res = await client(sb).ability('run-updates-v1', {}, { method: 'POST' });
      expect(res.status).toBe(200);
      const codes = res.body.errors.map((e: { site_id: number; code: string }) => `${e.site_id}:${e.code}`);
      expect(codes).toEqual(
        compat
          ? ['2:svc_site_offline', '3:svc_child_outdated', '3:svc_child_outdated']
          : ['3:svc_child_outdated', '3:svc_child_outdated'],
      );
      expect(res.body.updated.map((u: { site_id: number }) => u.site_id)).toEqual([1]);
    } finally {
      await sb.close();
    }
  });

  // Spec §8: "operations affecting more than 200 sites are queued"; facts §4: the threshold counts
  // "200 **accessible** sites (counted after resolution and access checks)".
  it('counts the sites the run affects against the queue threshold', async () => {
    const sb = await start({ profile, fleet: fleet(), queueThreshold: 2 });
    try {
      const res = await client(sb).ability('run-updates-v1', { types: ['plugins'] }, { method: 'POST' });
      if (compat) expect(res.body).toMatchObject({ queued: true, updates_queued: 3 });
      else
        expect(res.body).toMatchObject({ summary: { total_updated: 1, total_errors: 1, sites_updated: 1 } });
    } finally {
      await sb.close();
    }
  });
});

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('global batch sites.create name (%s)', (profile) => {
  const compat = profile === 'compat-6.1';
  const sb = sandboxPer('test', () => start({ profile }));
  const api = client(sb);

  // Spec §2 "Site create payload (batch)": `name` | string | "yes (shown in use)";
  // facts §6.4: "Site create: `name` optional (derived from the URL)."
  it('requires name (spec) or derives it from the URL (compat)', async () => {
    const res = await api.rest('POST', 'batch', {
      sites: { create: [{ url: 'https://new.example.test', admin: 'boss', uniqueid: 'u1' }] },
    });
    expect(res.status).toBe(200);
    const [result] = res.body.sites.create;
    if (compat) expect(result).toMatchObject({ success: 1, data: { name: 'new.example.test' } });
    else expect(result).toMatchObject({ success: 0, error: expect.any(String) });
    expect((await api.ability('list-sites-v1')).body.total).toBe(compat ? 4 : 3);
    const named = await api.rest('POST', 'batch', {
      sites: {
        create: [{ url: 'https://named.example.test', name: 'Named', admin: 'boss', uniqueid: 'u2' }],
      },
    });
    expect(named.body.sites.create[0]).toMatchObject({ success: 1, data: { name: 'Named' } });
  });
});

describe.each<SandboxProfile>(['compat-6.1', 'spec'])('REST ignore route replies (%s)', (profile) => {
  const compat = profile === 'compat-6.1';
  const sb = sandboxPer('test', () => start({ profile }));
  const api = client(sb);

  // Spec §4.1 "Ignore updates": "Success response: `{success: 1, message: <string>}`"; facts §6.3:
  // slug-less ignore/plugins answers `{"success":1,"message":"Ignore update plugins per site
  // successfully.","url":"<site url>"}`.
  it('answers slug-less ignore/plugins and ignore/themes in the profile shape', async () => {
    for (const kind of ['plugins', 'themes']) {
      const res = await api.rest('POST', `updates/1/ignore/${kind}`, {});
      const message = `Ignore update ${kind} per site successfully.`;
      expect(res.body).toEqual(
        compat ? { success: 1, message, url: 'https://one.example.test/' } : { success: 1, message },
      );
    }
  });
});
