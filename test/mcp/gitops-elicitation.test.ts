import * as fs from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolServer, serveHttp } from '../../src/mcp/index.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { type Connected, connect, SMALL_CONFIG, startSmallSandbox, writes } from './helpers.js';

/**
 * svc_apply where the client can ask its user (MCP form elicitation), driven by the SDK's client
 * over the in-memory transport: the server asks the user itself, with its own summary of the
 * plan the call names, and applies only on an accept.
 */
describe('svc_apply asks the user through the client', () => {
  let sandbox: RunningSandbox;
  let agent: Connected | undefined;
  beforeEach(async () => {
    sandbox = await startSmallSandbox('spec');
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await sandbox.close();
  });

  /** A user who answers every question with `answer` and remembers what they were shown. */
  const user = (answer: ElicitResult) => {
    const asked: Array<ElicitRequest['params']> = [];
    return {
      asked,
      answer: (question: ElicitRequest['params']) => {
        asked.push(question);
        return answer;
      },
    };
  };
  const start = (answer: (question: ElicitRequest['params']) => ElicitResult) =>
    connect({ env: fastClientEnv(sandbox), files: { 'svc-gitops.yaml': SMALL_CONFIG }, user: answer });

  it('plan gives no token; apply shows the server summary of the named plan and applies on accept', async () => {
    const yes = user({ action: 'accept', content: { apply: true } });
    agent = await start(yes.answer);
    const plan = await agent.call('svc_plan', {});
    expect(plan.result).toMatchObject({
      has_changes: true,
      confirmation: 'elicitation',
      next_action: 'apply_asks_user',
      summary: { update: 4, ignore: 3, sites: 3 },
    });
    expect(plan.result).not.toHaveProperty('confirmation_token');
    expect(yes.asked).toHaveLength(0);

    const applied = await agent.call('svc_apply', { plan_id: plan.result.plan_id });
    expect(applied.isError, applied.text).toBe(false);
    expect(applied.result).toMatchObject({
      plan_id: plan.result.plan_id,
      applied: true,
      confirmed_by: 'user',
      counts: { done: 7, failed: 0 },
    });
    expect(yes.asked).toHaveLength(1);
    const { message } = yes.asked[0]!;
    expect(message).toMatch(/written by the svc-gitops tool server from the plan itself/);
    expect(message).toContain(`Plan ${String(plan.result.plan_id).slice(0, 12)} for ${sandbox.url}`);
    expect(message).toContain('4 update(s), 3 ignore(s), 0 unignore(s) on 3 site(s)');
    expect(message).toContain('- https://two.example.test/ (site 2): ');
    expect(message).toContain('update theme astra 4.11.1 → 4.11.3');
    expect(yes.asked[0]).toMatchObject({ requestedSchema: { required: ['apply'] } });
  });

  it('plan A shown, plan B applied: the user is asked about B itself, declines, and nothing is written', async () => {
    const no = user({ action: 'decline' });
    agent = await start(no.answer);
    const planA = await agent.call('svc_plan', { target: ['two.example.test'] });
    const planB = await agent.call('svc_plan', {});
    const before = await writes(sandbox);
    // The agent names B and claims the user confirmed; a token of any kind changes nothing.
    const misused = await agent.call('svc_apply', {
      plan_id: planB.result.plan_id,
      user_confirmed: true,
      confirmation_token: 'made-up',
    });
    expect(misused).toMatchObject({
      isError: true,
      result: { code: 'USER_DECLINED', plan_id: planB.result.plan_id, applied: false, answer: 'decline' },
    });
    // What the user saw was plan B's own account (three sites), not plan A (one site).
    expect(no.asked).toHaveLength(1);
    expect(no.asked[0]!.message).toContain(String(planB.result.plan_id).slice(0, 12));
    expect(no.asked[0]!.message).not.toContain(String(planA.result.plan_id).slice(0, 12));
    expect(no.asked[0]!.message).toContain('on 3 site(s)');
    expect(no.asked[0]!.message).toContain('https://one.example.test/');
    expect(await writes(sandbox)).toEqual(before);
  });

  it('decline, cancel, an accept without the box, and an unnamed plan all write nothing', async () => {
    const answers: ElicitResult[] = [
      { action: 'cancel' },
      { action: 'accept', content: { apply: false } },
      { action: 'decline' },
    ];
    const asked: string[] = [];
    agent = await start((question) => {
      asked.push(question.message);
      return answers[asked.length - 1]!;
    });
    const plan = await agent.call('svc_plan', {});
    const before = await writes(sandbox);
    const unnamed = await agent.call('svc_apply', { user_confirmed: true });
    expect(unnamed).toMatchObject({ isError: true, result: { code: 'INVALID_PARAMETER' } });
    expect(asked).toHaveLength(0);
    for (const answer of ['cancel', 'cancel', 'decline']) {
      const refused = await agent.call('svc_apply', { plan_id: plan.result.plan_id });
      expect(refused, refused.text).toMatchObject({
        isError: true,
        result: { code: 'USER_DECLINED', applied: false, answer },
      });
      expect(refused.text).toMatch(/nothing was applied/);
    }
    expect(asked).toHaveLength(3);
    expect(await writes(sandbox)).toEqual(before);
    // dry_run asks nobody and sends nothing.
    const calls = await agent.call('svc_apply', { plan_id: plan.result.plan_id, dry_run: true });
    expect(calls.result).toMatchObject({ dry_run: true, plan_id: plan.result.plan_id });
    expect(asked).toHaveLength(3);
    expect(await writes(sandbox)).toEqual(before);
  });

  it('over Streamable HTTP the user is asked too, and the accept applies', async () => {
    const cwd = tempDirForFile('svc-gitops-mcp-elicit-');
    fs.writeFileSync(join(cwd, 'svc-gitops.yaml'), SMALL_CONFIG);
    const token = 'a-long-operator-token-0123456789';
    const http = await serveHttp({
      port: 0,
      token,
      log: () => {},
      newServer: () =>
        createToolServer({
          env: { ...fastClientEnv(sandbox), HOME: cwd },
          cwd,
          fs,
          homeDir: cwd,
          log: () => {},
        }),
    });
    const client = new Client(
      { name: 'http-agent', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { apply: true } };
    });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const plan = await client.callTool({ name: 'svc_plan', arguments: {} });
      const planId = (plan.structuredContent as { plan_id: string }).plan_id;
      const applied = await client.callTool({ name: 'svc_apply', arguments: { plan_id: planId } });
      expect(applied.isError ?? false).toBe(false);
      expect(applied.structuredContent).toMatchObject({
        plan_id: planId,
        applied: true,
        confirmed_by: 'user',
      });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain(planId.slice(0, 12));
    } finally {
      await client.close();
      await http.close();
    }
  });
});
