import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { type Connected, connect, startSmallSandbox, testClock, untilConnected } from './helpers.js';

/**
 * The tool server as a drop-in for the dashboard vendor's own (`--namespace mainwp`), driven
 * through the SDK's client with what the vendor documents: a settings file in its format, its
 * variables, its error shapes and numeric codes, `next_action`, unknown and blocked tools as
 * error results, its gating by the catalogue's annotations, timeouts. `compatibility: vendor`
 * is the vendor-compatible setting; the last block shows the default differs only where
 * docs/mcp.md says (safer gating, a hidden tool is not found).
 */

/** A settings file as the vendor documents it (its keys only), for the sandbox. */
function vendorFile(sandbox: RunningSandbox, extra: Record<string, unknown> = {}) {
  return {
    dashboardUrl: sandbox.url,
    username: sandbox.credentials.username,
    appPassword: sandbox.credentials.applicationPassword,
    allowHttp: true,
    rateLimit: 0,
    blockedTools: ['ignore_site_themes_v1'],
    abilityNamespaces: ['mainwp'],
    retryEnabled: true,
    _comment: 'written for the vendor',
    ...extra,
  };
}

/** The vendor's variables (retry waits short, one attempt: the tests judge answers, not patience). */
const VENDOR_ENV = {
  MAINWP_COMPATIBILITY: 'vendor',
  MAINWP_MAX_RETRIES: '1',
  MAINWP_RETRY_BASE_DELAY: '1',
  MAINWP_RETRY_MAX_DELAY: '5',
  MAINWP_SCHEMA_VERBOSITY: 'standard',
  MAINWP_RESPONSE_FORMAT: 'compact',
  MAINWP_ABILITY_NAMESPACES: 'mainwp',
};

const open: Connected[] = [];
afterEach(async () => {
  for (const agent of open.splice(0)) await agent.close();
});

async function vendorAgent(
  sandbox: RunningSandbox,
  options: {
    file?: Record<string, unknown>;
    env?: Record<string, string>;
    clock?: ReturnType<typeof testClock>;
  } = {},
) {
  const home = tempDirForFile('svc-gitops-vendor-home-');
  fs.mkdirSync(join(home, '.config', 'mainwp-mcp'), { recursive: true });
  fs.writeFileSync(
    join(home, '.config', 'mainwp-mcp', 'settings.json'),
    JSON.stringify(vendorFile(sandbox, options.file)),
  );
  const agent = await connect({
    namespace: 'mainwp',
    home,
    env: { ...VENDOR_ENV, ...options.env },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  open.push(agent);
  return agent;
}

/** The JSON of an error result's text: the vendor's clients parse the text. */
function errorOf(answer: { isError: boolean; text: string }) {
  expect(answer.isError, answer.text).toBe(true);
  expect(answer.text).not.toMatch(/MCP error/);
  return JSON.parse(answer.text) as Record<string, unknown>;
}

describe('vendor-compatible, against the shipped 6.1 catalogue', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('compat-6.1', { namespace: 'mainwp' });
  });
  afterAll(() => sandbox.close());

  it('introduces itself as the vendor does, with completions, titles and open-world hints', async () => {
    const agent = await vendorAgent(sandbox);
    expect(agent.client.getServerVersion()?.name).toBe('mainwp-mcp');
    expect(agent.client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: {},
      prompts: {},
      completions: {},
    });
    const { tools } = await agent.client.listTools();
    const abilities = tools.filter((tool) => !tool.name.startsWith('mainwp_'));
    // 26 in the catalogue, one blocked by the file's array.
    expect(abilities).toHaveLength(25);
    for (const tool of abilities) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.annotations, tool.name).toMatchObject({ title: tool.title, openWorldHint: true });
      // Every shipped 6.1 ability is annotated destructive: false: none is gated.
      expect(tool.annotations?.destructiveHint, tool.name).toBe(false);
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('user_confirmed');
    }
  });

  it('every write runs, in safe mode too, as the catalogue annotates none destructive', async () => {
    const agent = await vendorAgent(sandbox, { file: { safeMode: true } });
    for (const [name, args] of [
      ['check_site_v1', { site_id_or_domain: 1 }],
      ['sync_sites_v1', { site_ids_or_domains: [1] }],
      ['set_ignored_updates_v1', { action: 'ignore', site_id_or_domain: 2, type: 'theme', slug: 'astra' }],
    ] as const) {
      const answer = await agent.call(name, args);
      expect(answer.isError, `${name}: ${answer.text}`).toBe(false);
    }
  });

  it('an unknown tool is -32003 and a blocked one -32008, as error results with one message', async () => {
    const agent = await vendorAgent(sandbox);
    expect(errorOf(await agent.call('no_such_tool_v1'))).toEqual({
      error: { code: -32003, message: 'Tool not found: no_such_tool_v1', data: { tool: 'no_such_tool_v1' } },
      code: 'TOOL_NOT_FOUND',
    });
    expect(errorOf(await agent.call('ignore_site_themes_v1'))).toMatchObject({
      error: { code: -32008, message: 'Tool is not allowed: ignore_site_themes_v1' },
      code: 'TOOL_NOT_ALLOWED',
    });
  });

  it('a dashboard "not found" is -32002; a result is the JSON text, pretty when asked', async () => {
    const agent = await vendorAgent(sandbox, { env: { MAINWP_RESPONSE_FORMAT: 'pretty' } });
    const missing = errorOf(await agent.call('get_site_v1', { site_id_or_domain: 999 }));
    expect(missing).toMatchObject({ error: { code: -32002 }, code: 'NOT_FOUND' });
    const site = await agent.call('get_site_v1', { site_id_or_domain: 1 });
    expect(site.text).toMatch(/^\{\n {2}"/);
    expect(JSON.parse(site.text)).toMatchObject({ id: 1 });
  });

  it('schemaVerbosity compact cuts descriptions; the help resource and completions follow the filters', async () => {
    const agent = await vendorAgent(sandbox, { env: { MAINWP_SCHEMA_VERBOSITY: 'compact' } });
    const { tools } = await agent.client.listTools();
    for (const tool of tools.filter((t) => !t.name.startsWith('mainwp_')))
      expect(tool.description?.length, tool.name).toBeLessThanOrEqual(60);
    const help = await agent.client.readResource({ uri: 'mainwp://help' });
    const text = (help.contents[0] as { text: string }).text;
    const listed = JSON.parse(text) as { compatibility: string; tools: Array<{ name: string }> };
    expect(listed.compatibility).toBe('vendor');
    expect(listed.tools.map((tool) => tool.name)).toContain('list_sites_v1');
    expect(listed.tools.map((tool) => tool.name)).not.toContain('ignore_site_themes_v1');
    const completion = await agent.client.complete({
      ref: { type: 'ref/resource', uri: 'mainwp://help/tool/{tool_name}' },
      argument: { name: 'tool_name', value: 'ignore_site_' },
    });
    expect(completion.completion.values).toEqual(['ignore_site_core_v1', 'ignore_site_plugins_v1']);
  });
});

describe('vendor-compatible, against the next release (gated updates with dry_run and confirm)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('next', {
      namespace: 'mainwp',
      faults: [{ kind: 'latency', ability: 'get-site-themes-v1', delayMs: 450 }],
    });
  });
  afterAll(() => sandbox.close());

  it('the confirmation flow answers with the vendor payloads and next_action', async () => {
    const clock = testClock();
    const agent = await vendorAgent(sandbox, { clock });
    const args = { site_id_or_domain: 1 };
    const preview = await agent.call('update_site_plugins_v1', args);
    expect(preview).toMatchObject({
      isError: false,
      result: {
        status: 'CONFIRMATION_REQUIRED',
        next_action: 'show_preview_and_confirm',
        preview: { dry_run: true },
        metadata: { tool: 'update_site_plugins_v1', expiresIn: '5 minutes' },
      },
    });
    const token = preview.result.confirmation_token;
    expect((preview.result.metadata as Record<string, unknown>).confirmation_token).toBe(token);

    const noToken = errorOf(await agent.call('update_site_plugins_v1', { ...args, user_confirmed: true }));
    expect(noToken).toMatchObject({
      error: 'PREVIEW_REQUIRED',
      next_action: 'request_preview_first',
      details: { tool: 'update_site_plugins_v1', ability: 'mainwp/update-site-plugins-v1' },
    });
    const both = errorOf(
      await agent.call('update_site_plugins_v1', { ...args, user_confirmed: true, dry_run: true }),
    );
    expect(both).toMatchObject({ error: 'CONFLICTING_PARAMETERS' });

    clock.advance(5 * 60_000 + 1);
    const late = errorOf(
      await agent.call('update_site_plugins_v1', {
        ...args,
        user_confirmed: true,
        confirmation_token: token,
      }),
    );
    expect(late).toMatchObject({ error: 'PREVIEW_EXPIRED', next_action: 'request_new_preview' });

    const again = await agent.call('update_site_plugins_v1', args);
    const ran = await agent.call('update_site_plugins_v1', {
      ...args,
      user_confirmed: true,
      confirmation_token: again.result.confirmation_token,
    });
    expect(ran.isError, ran.text).toBe(false);
  });

  it('safe mode blocks a destructive tool with the vendor payload; a non-destructive write runs', async () => {
    const agent = await vendorAgent(sandbox, { env: { MAINWP_SAFE_MODE: 'true' } });
    const blocked = errorOf(await agent.call('update_all_v1', {}));
    expect(blocked).toMatchObject({ error: 'SAFE_MODE_BLOCKED', details: { tool: 'update_all_v1' } });
    const ignored = await agent.call('ignore_site_plugins_v1', {
      site_id_or_domain: 2,
      slugs: ['akismet/akismet.php'],
      action: 'add',
    });
    expect(ignored.isError, ignored.text).toBe(false);
  });

  it('a request over MAINWP_REQUEST_TIMEOUT is -32001, on time below a second', async () => {
    const agent = await vendorAgent(sandbox, { env: { MAINWP_REQUEST_TIMEOUT: '200' } });
    await untilConnected(agent);
    const slow = errorOf(await agent.call('get_site_themes_v1', { site_id_or_domain: 1 }));
    expect(slow).toMatchObject({ error: { code: -32001 }, code: 'TIMEOUT' });
  });
});

describe('the default setting differs only where docs/mcp.md says', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('compat-6.1', { namespace: 'mainwp' });
  });
  afterAll(() => sandbox.close());

  it('safer gating (safe mode on, every write but check and sync gated); a hidden tool is not found', async () => {
    const agent = await vendorAgent(sandbox, { env: { MAINWP_COMPATIBILITY: 'svc' } });
    expect((await agent.call('check_site_v1', { site_id_or_domain: 1 })).isError).toBe(false);
    expect((await agent.call('sync_sites_v1', {})).isError).toBe(false);
    expect(
      errorOf(
        await agent.call('set_ignored_updates_v1', {
          action: 'ignore',
          site_id_or_domain: 2,
          type: 'theme',
          slug: 'astra',
        }),
      ),
    ).toMatchObject({ error: 'SAFE_MODE_BLOCKED' });
    expect(errorOf(await agent.call('ignore_site_themes_v1'))).toMatchObject({
      error: { code: -32003, message: 'Tool not found: ignore_site_themes_v1' },
    });
    // Everything else reads the same: the vendor's keys, variables and error shapes.
    expect(errorOf(await agent.call('get_site_v1', { site_id_or_domain: 999 }))).toMatchObject({
      error: { code: -32002 },
    });
  });
});
