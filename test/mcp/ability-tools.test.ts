import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { PROFILES, resetStats, sandboxStats } from '../e2e/helpers.js';
import { ECHOING_FLEET, FRONT_END_SECRET } from '../helpers/echoing-fleet.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { type Connected, catalogue, connect, startSmallSandbox } from './helpers.js';

const GITOPS = [
  'svc_validate',
  'svc_plan',
  'svc_apply',
  'svc_show_plan',
  'svc_drift',
  'svc_explain',
  'svc_status',
];
const SETUP = ['svc_get_setup_status', 'svc_configure'];

describe.each(PROFILES)('dashboard tools from the %s sandbox catalogue', (profile) => {
  let sandbox: RunningSandbox;
  const open: Connected[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const connected = await connect({ env: fastClientEnv(sandbox, env) });
    open.push(connected);
    return connected;
  };
  beforeAll(async () => {
    sandbox = await startSmallSandbox(profile);
  });
  afterAll(async () => {
    for (const connected of open) await connected.close();
    await sandbox.close();
  });

  it('lists one <verb>_<noun>_v1 tool per ability with its schema and annotations as hints', async () => {
    const agent = await start();
    const { tools } = await agent.client.listTools();
    const items = await catalogue(sandbox);
    expect(items.length).toBeGreaterThanOrEqual(15);
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([
      ...GITOPS,
      ...items.map((item) => item.name.replace('svc/', '').replaceAll('-', '_')),
      ...SETUP,
    ]);
    for (const item of items) {
      const tool = tools.find(
        (candidate) => candidate.name === item.name.replace('svc/', '').replaceAll('-', '_'),
      );
      const { readonly, idempotent } = item.meta.annotations;
      // Every write is destructive to the server, whatever the catalogue says of it, but a
      // maintenance refresh (check, sync).
      const gated = !readonly && !/^svc\/(check|sync)-sites?-v1$/.test(item.name);
      expect(tool?.annotations, item.name).toEqual({
        title: (item as { label?: string }).label,
        readOnlyHint: readonly,
        destructiveHint: gated,
        idempotentHint: idempotent,
        openWorldHint: true,
      });
      expect(tool?.title, item.name).toBe((item as { label?: string }).label);
      // The flow's parameters only where the ability can be confirmed (a boolean `confirm`).
      const confirm = item.input_schema.properties.confirm as { type?: unknown } | undefined;
      const confirmable = gated && confirm?.type === 'boolean';
      const extra = confirmable ? ['user_confirmed', 'confirmation_token'] : [];
      expect(Object.keys(tool?.inputSchema.properties ?? {}), item.name).toEqual([
        ...Object.keys(item.input_schema.properties),
        ...extra,
      ]);
      if (gated && !confirmable) expect(tool?.description, item.name).toContain('svc_plan and svc_apply');
    }
    // update-all is destructive in the spec (note 1), though the shipped 6.1 catalogue says not.
    const updateAll = tools.find((tool) => tool.name === 'update_all_v1');
    expect(updateAll?.annotations?.destructiveHint).toBe(true);
  });

  it('passes an ability answer through as the dashboard sent it, using the method the catalogue says', async () => {
    const agent = await start();
    await agent.client.listTools();
    await resetStats(sandbox);
    const viaTool = await agent.client.callTool({
      name: 'list_updates_v1',
      arguments: { per_page: 2, page: 2 },
    });
    const { username, applicationPassword } = sandbox.credentials;
    const direct = await fetch(
      `${sandbox.url}/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run?input[per_page]=2&input[page]=2`,
      {
        headers: {
          authorization: `Basic ${Buffer.from(`${username}:${applicationPassword}`).toString('base64')}`,
        },
      },
    );
    expect(viaTool.isError).toBeFalsy();
    // The dashboard's own bytes, once: as the text content, without a structured copy.
    expect(viaTool.content).toEqual([{ type: 'text', text: await direct.text() }]);
    expect(viaTool.structuredContent).toBeUndefined();
    const stats = await sandboxStats(sandbox);
    expect(stats.abilities['svc/list-updates-v1']).toBe(2);
  });

  it('a dashboard refusal is a tool error with its code; an empty array for a GET ability is refused first', async () => {
    const agent = await start();
    const invalid = await agent.call('list_updates_v1', { per_page: 500 });
    expect(invalid).toMatchObject({ isError: true, result: { code: 'HTTP_ERROR' } });
    expect(invalid.text).toMatch(/ability_invalid_input/);
    const direct = await start({ SVC_SAFE_MODE: 'false', SVC_REQUIRE_USER_CONFIRMATION: 'false' });
    const unknownSite = await direct.call('update_site_core_v1', { site_id_or_domain: 999 });
    // 404 in the spec, 403 in 6.1: either way the tolerant reader's not-found.
    expect(unknownSite).toMatchObject({ isError: true, result: { code: 'NOT_FOUND' } });
    expect(unknownSite.text).toMatch(/svc_site_not_found/);
    await resetStats(sandbox);
    const many = Array.from({ length: 1000 }, (_, i) => `site-${i}.example.test`);
    const long = await agent.call('list_updates_v1', { site_ids_or_domains: many });
    expect(long).toMatchObject({ isError: true, result: { code: 'INVALID_PARAMETER' } });
    expect(long.text).toMatch(/request line of \d+ bytes, over the 8192 a web server accepts/);
    const empty = await agent.call('list_updates_v1', { types: [] });
    expect(empty).toMatchObject({ isError: true, result: { code: 'INVALID_PARAMETER' } });
    expect(empty.text).toMatch(/leave types out/);
    expect((await sandboxStats(sandbox)).requests_total).toBe(0);
  });

  it('safe mode blocks every write before any call; off, one without confirm is refused (fail closed)', async () => {
    const guarded = await start();
    await guarded.client.listTools();
    const unguarded = await start({ SVC_SAFE_MODE: 'false' });
    await unguarded.client.listTools();
    await resetStats(sandbox);
    // The catalogue of 6.1 calls none of these destructive; each still changes sites.
    const writes: Array<[string, Record<string, unknown>]> = [
      ['update_all_v1', {}],
      ['update_site_core_v1', { site_id_or_domain: 1 }],
      ['run_updates_v1', { site_ids_or_domains: [1] }],
      ['set_ignored_updates_v1', { action: 'ignore', site_id_or_domain: 1, type: 'plugin', slug: 'akismet' }],
    ];
    for (const [name, args] of writes) {
      const blocked = await guarded.call(name, args);
      expect(blocked, name).toMatchObject({
        isError: true,
        result: { code: 'SAFE_MODE_BLOCKED', details: { tool: name } },
      });
      expect(blocked.text).toContain('svc_plan and svc_apply');
    }
    const unsupported = await unguarded.call('update_all_v1', {
      user_confirmed: true,
      confirmation_token: 'x',
    });
    expect(unsupported).toMatchObject({ isError: true, result: { code: 'CONFIRMATION_UNSUPPORTED' } });
    expect((await sandboxStats(sandbox)).requests_total).toBe(0);
  });

  it('a maintenance refresh (check, sync) runs under the default settings, safe mode on', async () => {
    const agent = await start();
    const check = await agent.call('check_site_v1', { site_id_or_domain: 1 });
    expect(check.isError, check.text).toBe(false);
    const sync = await agent.call('sync_sites_v1', { site_ids_or_domains: [1] });
    expect(sync.isError, sync.text).toBe(false);
  });
});

describe('requireUserConfirmation: false', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('spec');
  });
  afterAll(() => sandbox.close());

  it('skips the two steps: a destructive ability runs as called (safe mode off)', async () => {
    const agent = await connect({
      env: fastClientEnv(sandbox, { SVC_SAFE_MODE: 'false', SVC_REQUIRE_USER_CONFIRMATION: 'false' }),
    });
    try {
      const { tools } = await agent.client.listTools();
      const updateAll = tools.find((tool) => tool.name === 'update_all_v1');
      expect(Object.keys(updateAll?.inputSchema.properties ?? {})).toEqual(['site_ids_or_domains']);
      const ran = await agent.call('update_all_v1', { site_ids_or_domains: [1] });
      expect(ran.isError, ran.text).toBe(false);
      expect(ran.result).toHaveProperty('summary');
      const left = await agent.call('get_site_updates_v1', { site_id_or_domain: 1 });
      expect(left.result).toMatchObject({ updates: [] });
      // Still one or the other (spec §3, any state); the flow's own parameters are dropped.
      const both = await agent.call('update_site_core_v1', {
        site_id_or_domain: 2,
        dry_run: true,
        user_confirmed: true,
      });
      expect(both).toMatchObject({ isError: true, result: { code: 'CONFLICTING_PARAMETERS' } });
      const habit = await agent.call('update_site_core_v1', {
        site_id_or_domain: 2,
        user_confirmed: true,
        confirmation_token: 'none',
      });
      expect(habit.isError, habit.text).toBe(false);
    } finally {
      await agent.close();
    }
  });
});

describe('dashboard answers through the tool server', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ fleet: parseFleet(ECHOING_FLEET, 'echoing.yaml'), profile: 'spec' });
  });
  afterAll(() => sandbox.close());

  it('mask every credential the server holds: the password sent, the token not sent, the HTTP token', async () => {
    const { applicationPassword, token } = sandbox.credentials;
    const agent = await connect({
      env: fastClientEnv(sandbox, { SVC_TOKEN: token, SVC_HTTP_TOKEN: FRONT_END_SECRET }),
    });
    try {
      const answer = await agent.call('list_updates_v1', { per_page: 10 });
      expect(answer.isError).toBe(false);
      for (const secret of [applicationPassword, token, FRONT_END_SECRET]) {
        expect(answer.text).not.toContain(secret);
      }
      const names = (answer.result.updates as Array<{ name: string }>).map((entry) => entry.name);
      expect(names.slice(0, 3)).toEqual(['Shop [redacted]', 'Blog [redacted]', 'Docs [redacted]']);
    } finally {
      await agent.close();
    }
  });
});
