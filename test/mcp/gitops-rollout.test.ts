import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRolloutState } from '../../src/plan/index.js';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { pluginUpdateFleet } from '../e2e/helpers.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { type Connected, connect, testClock } from './helpers.js';

/**
 * The tool server keeps the rollout state as the CLI does: six sites in three waves (canary 1-2,
 * early 3-4 after canary healthy for 24h, everyone after early), driven through the SDK client.
 */
const CONFIG = `version: 1
updates:
  - name: plugins
    sites: [all]
    kinds: [plugins]
    max: minor
rollout:
  health: {}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: early, sites: [3, 4], after: {wave: canary, healthy_for: 24h}}
    - {name: everyone, sites: [all], after: {wave: early, healthy_for: 24h}}
`;

describe('svc_plan and svc_apply keep the rollout state', () => {
  let sandbox: RunningSandbox;
  let agent: Connected | undefined;
  beforeEach(async () => {
    sandbox = await startSandbox({ fleet: parseFleet(pluginUpdateFleet(6)) });
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await sandbox.close();
  });

  it('after the canary is applied, the next plan holds `early` for its healthy_for and the file is written', async () => {
    const clock = testClock();
    agent = await connect({ env: fastClientEnv(sandbox), files: { 'svc-gitops.yaml': CONFIG }, clock });
    const updated = (result: Record<string, unknown>) =>
      String(result.markdown)
        .match(/site-\d/g)
        ?.filter((site, i, all) => all.indexOf(site) === i) ?? [];

    const first = await agent.call('svc_plan', {});
    expect(first.isError, first.text).toBe(false);
    expect(first.result).toMatchObject({ has_changes: true, summary: { update: 2, sites: 2 } });
    expect(updated(first.result)).toEqual(['site-1', 'site-2']);

    clock.advance(60_000);
    const applied = await agent.call('svc_apply', {
      plan_id: first.result.plan_id,
      confirmation_token: first.result.confirmation_token,
      user_confirmed: true,
    });
    expect(applied.isError, applied.text).toBe(false);
    expect(applied.result).toMatchObject({ applied: true, counts: { done: 2, failed: 0 } });
    expect(applied.result).not.toHaveProperty('stopped');

    const stateFile = join(agent.cwd, 'svc-gitops.rollout.json');
    expect(existsSync(stateFile)).toBe(true);
    const state = parseRolloutState(readFileSync(stateFile, 'utf8'), stateFile, clock.now());
    expect(Object.keys(state.waves)).toContain('canary');
    // The tool server's apply goes through the same run as the CLI's: it appends the history.
    const history = readFileSync(join(agent.cwd, '.svc-gitops', 'history.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(history.map((line) => JSON.parse(line).outcome)).toEqual(['done', 'done']);

    // An hour later: canary is healthy but not yet for 24h, so `early` is not offered.
    clock.advance(3_600_000);
    const second = await agent.call('svc_plan', {});
    expect(second.isError, second.text).toBe(false);
    expect(second.result).toMatchObject({ has_changes: false, summary: { update: 0 } });
    expect(second.result).not.toHaveProperty('confirmation_token');
    expect(second.text).toMatch(/early/);
  });

  it('a canary left unhealthy stops svc_apply and the next svc_plan says the rollout is halted', async () => {
    await fetch(`${sandbox.url}/__sandbox/health-faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7' }]),
    });
    const clock = testClock();
    const halting = CONFIG.replace('health: {}', 'health: {max_unhealthy: 0}');
    agent = await connect({ env: fastClientEnv(sandbox), files: { 'svc-gitops.yaml': halting }, clock });
    const first = await agent.call('svc_plan', {});
    const applied = await agent.call('svc_apply', {
      plan_id: first.result.plan_id,
      confirmation_token: first.result.confirmation_token,
      user_confirmed: true,
    });
    expect(applied.isError).toBe(true);
    expect(applied.result).toMatchObject({ applied: false, stopped: true, health: { wave: 'canary' } });

    clock.advance(48 * 3_600_000);
    const later = await agent.call('svc_plan', {});
    expect(later.isError).toBe(true);
    expect(later.result).toMatchObject({
      has_changes: false,
      stopped: true,
      health: { wave: 'canary', unhealthy: [{ site_id: 2 }] },
    });
    expect(later.text).toMatch(/^Rollout halted at wave canary: 1 site unhealthy since /);
  });

  it('svc_plan `at` previews when the next wave runs; such a plan is never applied, and explain says when', async () => {
    const clock = testClock();
    const asked: string[] = [];
    agent = await connect({
      env: fastClientEnv(sandbox),
      files: { 'svc-gitops.yaml': CONFIG },
      clock,
      user: (question) => {
        asked.push(question.message);
        return { action: 'accept', content: { apply: true } };
      },
    });
    const first = await agent.call('svc_plan', {});
    const applied = await agent.call('svc_apply', { plan_id: first.result.plan_id });
    expect(applied.result, applied.text).toMatchObject({ applied: true, counts: { done: 2 } });
    const stateFile = join(agent.cwd, 'svc-gitops.rollout.json');
    const state = readFileSync(stateFile, 'utf8');

    clock.advance(3_600_000);
    const at = new Date(clock.now().getTime() + 24 * 3_600_000).toISOString();
    const preview = await agent.call('svc_plan', { at });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.result).toMatchObject({
      has_changes: true,
      summary: { update: 2 },
      at,
      preview: true,
      next_action: 'preview_only',
    });
    expect(preview.result).not.toHaveProperty('confirmation_token');
    expect(preview.text).toContain(`A preview of the gates at ${at}: it cannot be applied.`);
    // A preview records nothing.
    expect(readFileSync(stateFile, 'utf8')).toBe(state);

    // Explain: the site's wave, the rollout order and the gate it waits for, with when it opens.
    const why = await agent.call('svc_explain', { site: '3', item: 'akismet/akismet.php' });
    expect(why.result).toMatchObject({
      found: true,
      wave: 'early',
      waves: ['canary', 'early', 'everyone', '(remaining)'],
      gates: { wave: 'early', after: { wave: 'canary', healthy_for: '24h' } },
      actions: [{ op: 'update', wave: 'early' }],
    });
    expect(why.text).toMatch(/After wave canary has been healthy for 24h: from \d{4}-/);

    // Apply never takes a preview: refused with its code before the user is asked, nothing sent.
    const refused = await agent.call('svc_apply', { plan_id: preview.result.plan_id });
    expect(refused.isError).toBe(true);
    expect(refused.result).toMatchObject({ code: 'PREVIEW_REQUIRED' });
    expect(refused.text).toContain('a preview is never applied');
    expect(refused.text).toContain('call svc_plan without `at`');
    expect(asked).toHaveLength(1);
    const sites = (await agent.call('svc_plan', {})).result;
    expect(sites).toMatchObject({ has_changes: false, summary: { update: 0 } });

    const past = await agent.call('svc_plan', { at: '2020-01-01T00:00:00Z' });
    expect(past).toMatchObject({ isError: true, result: { code: 'INVALID_PARAMETER' } });
    const vague = await agent.call('svc_plan', { at: 'tomorrow' });
    expect(vague).toMatchObject({ isError: true, result: { code: 'INVALID_PARAMETER' } });
  });
});
