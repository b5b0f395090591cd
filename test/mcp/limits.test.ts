import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { PROFILES } from '../e2e/helpers.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { CORE_CONFIG, catalogue, connect, SMALL_CONFIG, startSmallSandbox, testClock } from './helpers.js';

describe.each(PROFILES)('allowedTools and blockedTools against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox(profile);
  });
  afterAll(() => sandbox.close());

  it('a hidden or misspelt tool is not listed and calling it is a tool-not-found result', async () => {
    const allowed = await connect({
      env: fastClientEnv(sandbox, { SVC_ALLOWED_TOOLS: 'svc_plan, list_updates_v1,svc_get_setup_status' }),
    });
    const blocked = await connect({
      env: fastClientEnv(sandbox, { SVC_BLOCKED_TOOLS: 'list_updates_v1,svc_apply' }),
    });
    try {
      expect((await allowed.client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'svc_plan',
        'list_updates_v1',
        'svc_get_setup_status',
      ]);
      expect(await allowed.call('svc_validate')).toMatchObject(notFound('svc_validate'));
      expect((await allowed.call('list_updates_v1', { per_page: 1 })).isError).toBe(false);
      const names = (await blocked.client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain('list_updates_v1');
      expect(names).not.toContain('svc_apply');
      expect(names).toContain('list_sites_v1');
      expect(await blocked.call('list_updates_v1')).toMatchObject(notFound('list_updates_v1'));
      expect(await blocked.call('svc_apply', { user_confirmed: true })).toMatchObject(notFound('svc_apply'));
      expect(await blocked.call('list_update_v1')).toMatchObject(notFound('list_update_v1'));
    } finally {
      await allowed.close();
      await blocked.close();
    }
  });
});

describe.each(PROFILES)(
  'the limits count tool calls and answers, not the reads behind them (%s)',
  (profile) => {
    let sandbox: RunningSandbox;
    beforeAll(async () => {
      sandbox = await startSmallSandbox(profile);
    });
    afterAll(() => sandbox.close());

    it('small limits leave the connection and a plan working; the answers are what they limit', async () => {
      // The catalogue alone is larger than 3,000 bytes, and a plan reads several pages: counted
      // against these limits they would break the connection, or hold the plan a minute per page.
      const agent = await connect({
        env: fastClientEnv(sandbox, {
          SVC_RATE_LIMIT: '3',
          SVC_MAX_RESPONSE_SIZE: '3000',
          SVC_MAX_SESSION_DATA: '20000',
        }),
        files: { 'svc-gitops.yaml': SMALL_CONFIG },
        clock: testClock(),
      });
      try {
        expect((await agent.call('svc_get_setup_status')).result).toMatchObject({ state: 'ready' });
        const plan = await agent.call('svc_plan', {});
        // The plan's answer (its markdown) is over 3,000 bytes: refused as a response, read in full.
        expect(plan.result).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
        expect((await agent.call('svc_get_setup_status')).isError).toBe(false);
        const fourth = await agent.call('svc_get_setup_status');
        expect(fourth.result).toMatchObject({ code: 'RATE_LIMITED' });
      } finally {
        await agent.close();
      }
    }, 20_000);
  },
);

/** These limits concern the tool server itself: a server in setup mode (no dashboard) shows them. */
/** The error result of a tool the client cannot see: the vendor's -32003 with our code. */
function notFound(name: string) {
  return {
    isError: true,
    result: { code: 'TOOL_NOT_FOUND', error: { code: -32003, message: `Tool not found: ${name}` } },
  };
}

describe('the tool server limits', () => {
  it('rateLimit: one call more than the limit in a minute is refused, a minute later it is fine', async () => {
    const clock = testClock();
    const agent = await connect({ env: { SVC_RATE_LIMIT: '2' }, clock });
    try {
      expect((await agent.call('svc_get_setup_status')).isError).toBe(false);
      expect((await agent.call('svc_get_setup_status')).isError).toBe(false);
      const third = await agent.call('svc_get_setup_status');
      expect(third).toMatchObject({ isError: true, result: { code: 'RATE_LIMITED' } });
      expect(third.text).toMatch(/Rate limit exceeded: more than 2 tool calls in one minute/);
      clock.advance(60_000);
      expect((await agent.call('svc_get_setup_status')).isError).toBe(false);
    } finally {
      await agent.close();
    }
  });

  it('unset, the tool server allows 60 calls a minute (the CLI then has no rate)', async () => {
    const agent = await connect({ env: {}, clock: testClock() });
    try {
      for (let call = 0; call < 60; call++)
        expect((await agent.call('svc_get_setup_status')).isError).toBe(false);
      expect((await agent.call('svc_get_setup_status')).result).toMatchObject({ code: 'RATE_LIMITED' });
    } finally {
      await agent.close();
    }
  });

  it('maxResponseSize refuses one large answer; maxSessionData refuses every call once crossed', async () => {
    const small = await connect({ env: { SVC_MAX_RESPONSE_SIZE: '200' } });
    const session = await connect({ env: { SVC_MAX_SESSION_DATA: '1500' } });
    try {
      const tooLarge = await small.call('svc_get_setup_status');
      expect(tooLarge).toMatchObject({ isError: true, result: { code: 'RESPONSE_TOO_LARGE' } });
      expect(tooLarge.text).toMatch(/Response too large: \d+ bytes exceeds the maximum allowed 200 bytes/);
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await session.call('svc_get_setup_status'));
      const first = answers.findIndex((answer) => answer.isError);
      expect(first).toBeGreaterThan(0);
      for (const answer of answers.slice(first)) {
        expect(answer.result).toMatchObject({ code: 'RESOURCE_EXHAUSTED' });
        expect(answer.text).toMatch(
          /Session data limit exceeded \(\d+ of 1500 bytes\)\. Restart the tool server to continue\./,
        );
      }
    } finally {
      await small.close();
      await session.close();
    }
  });

  it('invalid settings stop the server before it starts, naming the variable', async () => {
    await expect(connect({ env: { SVC_SAFE_MODE: 'maybe' } })).rejects.toThrow(
      /SVC_SAFE_MODE must be a boolean/,
    );
    await expect(
      connect({ env: { SVC_URL: 'http://dashboard.example.com', SVC_USER: 'u', SVC_APP_PASSWORD: 'p' } }),
    ).rejects.toThrow(/uses HTTP which transmits credentials in plain text/);
  });
});

describe('--namespace', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('spec', { namespace: 'acme' });
  });
  afterAll(() => sandbox.close());

  it('renames tool prefixes, the variables, the settings file and the interface namespace', async () => {
    const svcLogin = fastClientEnv(sandbox);
    const acme = Object.fromEntries(
      Object.entries(svcLogin).map(([key, value]) => [key.replace(/^SVC_/, 'ACME_'), value]),
    );
    const agent = await connect({ namespace: 'acme', env: { ...acme, SVC_URL: 'not a url' } });
    const unconfigured = await connect({ namespace: 'acme', env: { SVC_URL: sandbox.url } });
    const home = join(agent.home, 'from-file');
    fs.mkdirSync(join(home, '.config', 'acme-mcp'), { recursive: true });
    fs.writeFileSync(
      join(home, '.config', 'acme-mcp', 'settings.json'),
      JSON.stringify({
        dashboardUrl: sandbox.url,
        username: 'admin',
        applicationPassword: sandbox.credentials.applicationPassword,
        allowHttp: true,
        rateLimit: 0,
      }),
    );
    const fromFile = await connect({ namespace: 'acme', env: {}, home });
    try {
      const names = (await agent.client.listTools()).tools.map((tool) => tool.name);
      expect(names.filter((name) => name.startsWith('acme_'))).toEqual([
        'acme_validate',
        'acme_plan',
        'acme_apply',
        'acme_show_plan',
        'acme_drift',
        'acme_explain',
        'acme_status',
        'acme_get_setup_status',
        'acme_configure',
      ]);
      expect(names).toContain('list_updates_v1');
      expect(names.some((name) => name.startsWith('svc_'))).toBe(false);
      const updates = await agent.call('list_updates_v1', {});
      expect(updates.result).toMatchObject({ total: 6 });
      const status = await unconfigured.call('acme_get_setup_status');
      expect(status.result).toMatchObject({ state: 'unconfigured', missing: 'url' });
      expect(status.result.guidance).toMatch(/ACME_URL, ACME_USER and ACME_APP_PASSWORD/);
      expect((await fromFile.call('acme_get_setup_status')).result).toMatchObject({
        state: 'ready',
        abilitiesCount: (await catalogue(sandbox)).length,
      });
    } finally {
      await agent.close();
      await unconfigured.close();
      await fromFile.close();
    }
  });
});

describe('--namespace: texts name what the server reads', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('spec', { namespace: 'acme' });
  });
  afterAll(() => sandbox.close());
  const acmeLogin = () =>
    Object.fromEntries(
      Object.entries(fastClientEnv(sandbox)).map(([key, value]) => [key.replace(/^SVC_/, 'ACME_'), value]),
    );

  it('a refusal names the ACME_* setting to change', async () => {
    const agent = await connect({
      namespace: 'acme',
      env: acmeLogin(),
      files: { 'svc-gitops.yaml': CORE_CONFIG },
    });
    try {
      const plan = await agent.call('acme_plan');
      expect(plan.isError).toBe(false);
      const refused = await agent.call('acme_apply', {
        plan_id: plan.result.plan_id,
        confirmation_token: plan.result.confirmation_token,
        user_confirmed: true,
      });
      expect(refused).toMatchObject({ isError: true, result: { code: 'SAFE_MODE_BLOCKED' } });
      expect(refused.text).toContain('ACME_SAFE_MODE=false');
      expect(refused.text).not.toContain('SVC_');
    } finally {
      await agent.close();
    }
  });

  it('a plan note names the ACME_* variable of the REST API key it lacks', async () => {
    const agent = await connect({
      namespace: 'acme',
      env: { ...acmeLogin(), ACME_TOKEN: '' },
      files: { 'svc-gitops.yaml': SMALL_CONFIG },
    });
    try {
      const plan = await agent.call('acme_plan');
      expect(plan.isError).toBe(false);
      // The markdown writes `_` as &#95;.
      expect(plan.text).toContain('cannot be read without a REST API key (ACME&#95;TOKEN)');
      expect(plan.text).not.toMatch(/SVC(_|&#95;)/);
    } finally {
      await agent.close();
    }
  });

  it('a variable of svc-gitops itself keeps its name: the one the server reads', async () => {
    const cwd = tempDirForFile('svc-gitops-mcp-acme-');
    fs.writeFileSync(join(cwd, 'blocker'), 'a file where the state directory should go');
    const agent = await connect({
      namespace: 'acme',
      cwd,
      env: { ...acmeLogin(), SVC_GITOPS_STATE_DIR: join(cwd, 'blocker', 'state') },
      files: { 'svc-gitops.yaml': SMALL_CONFIG },
    });
    try {
      const plan = await agent.call('acme_plan');
      const failed = await agent.call('acme_apply', {
        plan_id: plan.result.plan_id,
        confirmation_token: plan.result.confirmation_token,
        user_confirmed: true,
      });
      expect(failed).toMatchObject({ isError: true, result: { code: 'IO_ERROR' } });
      expect(failed.text).toContain('set SVC_GITOPS_STATE_DIR to a writable directory');
      expect(failed.text).not.toContain('ACME_GITOPS');
    } finally {
      await agent.close();
    }
  });
});
