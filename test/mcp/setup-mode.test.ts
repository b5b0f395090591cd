import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskedFs } from '../../src/cli/masked-fs.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { PROFILES } from '../e2e/helpers.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { type Connected, catalogue, connect, startSmallSandbox } from './helpers.js';

const SETUP = ['svc_get_setup_status', 'svc_configure'];

describe.each(PROFILES)('setup mode against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  const open: Connected[] = [];
  const start = async (options: Parameters<typeof connect>[0]) => {
    const connected = await connect(options);
    open.push(connected);
    return connected;
  };
  const login = () => ({
    dashboard_url: sandbox.url,
    username: sandbox.credentials.username,
    application_password: sandbox.credentials.applicationPassword,
  });
  beforeAll(async () => {
    sandbox = await startSmallSandbox(profile);
  });
  afterAll(async () => {
    for (const connected of open) await connected.close();
    await sandbox.close();
  });

  it('without a dashboard only the two setup tools are listed; configure connects and announces the full list', async () => {
    const agent = await start({ env: { SVC_ALLOW_HTTP: 'true', SVC_RATE_LIMIT: '0' } });
    let announced = 0;
    agent.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      announced += 1;
    });
    expect((await agent.client.listTools()).tools.map((tool) => tool.name)).toEqual(SETUP);
    expect((await agent.call('svc_get_setup_status')).result).toMatchObject({
      state: 'unconfigured',
      missing: 'url',
    });
    const plan = await agent.call('svc_plan');
    expect(plan).toMatchObject({
      isError: true,
      result: { status: 'not_configured', state: 'unconfigured' },
    });
    expect(await agent.call('list_updates_v1')).toMatchObject({
      isError: true,
      result: { code: 'TOOL_NOT_FOUND', error: { code: -32003 } },
    });

    const missing = await agent.call('svc_configure', { dashboard_url: sandbox.url });
    expect(missing).toMatchObject({ isError: true, result: { code: 'INVALID_PARAMETER' } });
    const wrong = await agent.call('svc_configure', { ...login(), application_password: 'not the password' });
    expect(wrong).toMatchObject({ isError: true, result: { status: 'refused', code: 'CONNECTION_FAILED' } });
    expect(wrong.text).not.toContain('not the password');
    const file = join(agent.home, '.config', 'svc-mcp', 'settings.json');
    expect(fs.existsSync(file)).toBe(false);

    const connected = await agent.call('svc_configure', login());
    expect(connected.result).toMatchObject({
      status: 'connected',
      abilitiesCount: (await catalogue(sandbox)).length,
      savedTo: file,
      state: 'ready',
    });
    expect(connected.text).not.toContain(sandbox.credentials.applicationPassword);
    await expect.poll(() => announced).toBe(1);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      dashboardUrl: sandbox.url,
      username: 'admin',
      applicationPassword: sandbox.credentials.applicationPassword,
    });
    const names = (await agent.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('svc_plan');
    expect(names).toContain('list_updates_v1');
    expect((await agent.call('svc_get_setup_status')).result).toMatchObject({
      state: 'ready',
      abilitiesCount: (await catalogue(sandbox)).length,
    });
    const again = await agent.call('svc_configure', login());
    expect(again.result).toMatchObject({ status: 'refused', code: 'ALREADY_CONFIGURED' });
  });

  it('configure never overrides the operator: environment, a working-directory file, plain http', async () => {
    const env = await start({ env: { SVC_ALLOW_HTTP: 'true', SVC_USER: 'admin' } });
    expect((await env.call('svc_configure', login())).result).toMatchObject({ code: 'ENV_CONFIGURED' });
    const shadowed = await start({ env: {}, files: { 'settings.json': '{"allowHttp": true}' } });
    expect((await shadowed.call('svc_configure', login())).result).toMatchObject({
      code: 'SHADOWED_BY_WORKING_DIRECTORY_FILE',
    });
    const plain = await start({ env: {} });
    const refused = await plain.call('svc_configure', login());
    expect(refused.result).toMatchObject({ code: 'INVALID_INPUT' });
    expect(refused.text).toMatch(/HTTP which transmits credentials in plain text/);
  });

  it('configure leaves a per-user file that holds part of a login alone', async () => {
    const home = tempDirForFile('svc-gitops-mcp-home-');
    const file = join(home, '.config', 'svc-mcp', 'settings.json');
    fs.mkdirSync(dirname(file), { recursive: true });
    const operator = '{"username": "operator-user", "applicationPassword": "operator password 1234"}\n';
    fs.writeFileSync(file, operator);
    const agent = await start({ env: { HOME: home, SVC_ALLOW_HTTP: 'true' }, home });
    expect((await agent.call('svc_get_setup_status')).result).toMatchObject({ missing: 'url' });
    const refused = await agent.call('svc_configure', login());
    expect(refused.result).toMatchObject({ status: 'refused', code: 'SETTINGS_FILE_CONFIGURED' });
    expect(refused.text).toContain('already sets username');
    expect(fs.readFileSync(file, 'utf8')).toBe(operator);
  });

  it('configure saves the password as typed, though the server masks what else it writes', async () => {
    // Every string the server writes through `fs` is masked; the settings file must not be.
    const masking = maskedFs(fs, (text) => text.replaceAll(sandbox.credentials.applicationPassword, '***'));
    const agent = await start({ env: { SVC_ALLOW_HTTP: 'true' }, fs: masking });
    expect((await agent.call('svc_configure', login())).result).toMatchObject({ status: 'connected' });
    const file = join(agent.home, '.config', 'svc-mcp', 'settings.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).applicationPassword).toBe(
      sandbox.credentials.applicationPassword,
    );
  });

  it('a login the dashboard refuses leaves the server in setup mode, and the status says why', async () => {
    const agent = await start({ env: fastClientEnv(sandbox, { SVC_APP_PASSWORD: 'wrong wrong wrong' }) });
    expect((await agent.client.listTools()).tools.map((tool) => tool.name)).toEqual(SETUP);
    const status = await agent.call('svc_get_setup_status');
    expect(status.result).toMatchObject({
      state: 'degraded',
      problem: expect.stringMatching(/^AUTH_FAILED: /),
    });
    expect(status.text).not.toContain('wrong wrong wrong');
    expect((await agent.call('svc_plan')).result).toMatchObject({
      status: 'not_configured',
      state: 'degraded',
    });
  });
});

describe('a dashboard without the abilities API', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('compat-6.1', { surfaces: { abilities: false } });
  });
  afterAll(() => sandbox.close());

  it('offers the GitOps tools over REST v2 with a note; without a REST key the status names the missing API', async () => {
    const rest = await connect({ env: fastClientEnv(sandbox) });
    const none = await connect({ env: fastClientEnv(sandbox, { SVC_TOKEN: '' }) });
    try {
      const names = (await rest.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual([
        'svc_validate',
        'svc_plan',
        'svc_apply',
        'svc_show_plan',
        'svc_drift',
        'svc_explain',
        'svc_status',
        ...SETUP,
      ]);
      expect((await rest.call('svc_get_setup_status')).result).toMatchObject({
        state: 'ready',
        surface: 'rest',
        note: expect.stringMatching(/no abilities API/),
      });
      const status = await none.call('svc_get_setup_status');
      expect(status.result).toMatchObject({
        state: 'degraded',
        problem: expect.stringMatching(/Abilities API endpoint not found/),
      });
    } finally {
      await rest.close();
      await none.close();
    }
  });
});
