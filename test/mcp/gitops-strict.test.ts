import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { type Connected, connect, SMALL_CONFIG, startSmallSandbox, writes } from './helpers.js';

/** SMALL_CONFIG with a misspelt slug in its ignore rule: a typo that would ignore nothing. */
const TYPO_CONFIG = SMALL_CONFIG.replace(
  'plugins: [classic-editor/classic-editor.php]',
  'plugins: [classic-editor/classic-editr.php]',
);

/** Strict names through the tool server, as `plan --strict` judges them. */
describe('svc_plan and svc_apply under strict names', () => {
  let sandbox: RunningSandbox;
  let agents: Connected[] = [];
  beforeEach(async () => {
    sandbox = await startSmallSandbox('spec');
  });
  afterEach(async () => {
    for (const agent of agents) await agent.close();
    agents = [];
    await sandbox.close();
  });
  const start = async (env: Record<string, string>, asks?: string[]) => {
    const agent = await connect({
      env: fastClientEnv(sandbox, env),
      files: { 'svc-gitops.yaml': TYPO_CONFIG },
      ...(asks
        ? {
            user: (question) => {
              asks.push(question.message);
              return { action: 'accept', content: { apply: true } };
            },
          }
        : {}),
    });
    agents.push(agent);
    return agent;
  };

  it('without strict: a warning with the suggestion, and the plan can be applied', async () => {
    const agent = await start({});
    const plan = await agent.call('svc_plan', {});
    expect(plan.isError, plan.text).toBe(false);
    expect(plan.result).toMatchObject({
      next_action: 'show_plan_and_confirm',
      unknown_names: [{ suggestion: 'classic-editor/classic-editor.php' }],
    });
    expect(plan.result).toHaveProperty('confirmation_token');
    expect(plan.text).toMatch(
      /warning: svc-gitops\.yaml:\d+:\d+: an ignore rule names plugin classic-editor\/classic-editr\.php/,
    );
  });

  it('SVC_STRICT: plan is an error with no token; apply refuses the plan, asks nobody, writes nothing', async () => {
    const asks: string[] = [];
    const agent = await start({ SVC_STRICT: 'true' }, asks);
    const plan = await agent.call('svc_plan', {});
    expect(plan.isError).toBe(true);
    expect(plan.result).toMatchObject({
      has_changes: true,
      strict_blocked: true,
      next_action: 'fix_unknown_names',
      unknown_names: [{ suggestion: 'classic-editor/classic-editor.php' }],
    });
    expect(plan.result).not.toHaveProperty('confirmation_token');
    expect(plan.text).toMatch(/error: svc-gitops\.yaml:\d+:\d+: an ignore rule names plugin/);
    const before = await writes(sandbox);
    const applied = await agent.call('svc_apply', { plan_id: plan.result.plan_id });
    expect(applied).toMatchObject({ isError: true, result: { code: 'CONFIG_INVALID' } });
    expect(applied.text).toMatch(
      /strict: the desired state names 1 site\(s\) or slug\(s\) the dashboard does not know/,
    );
    expect(applied.text).toContain('SVC_STRICT');
    expect(asks).toHaveLength(0);
    expect(await writes(sandbox)).toEqual(before);
  });
});
