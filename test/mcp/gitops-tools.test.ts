import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { PROFILES } from '../e2e/helpers.js';
import { fastClientEnv, sandboxControl } from '../helpers/sandbox.js';
import {
  CORE_CONFIG,
  type Connected,
  connect,
  SMALL_CONFIG,
  startSmallSandbox,
  testClock,
  writes,
} from './helpers.js';

/**
 * The GitOps tools driven by the SDK's client over the in-memory transport, against a sandbox
 * per test (apply changes it), in both profiles.
 */
describe.each(PROFILES)('GitOps tools against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let open: Connected[] = [];
  const start = async (env: Record<string, string> = {}, clock = testClock(), config = SMALL_CONFIG) => {
    const connected = await connect({
      env: fastClientEnv(sandbox, env),
      files: { 'svc-gitops.yaml': config },
      clock,
    });
    open.push(connected);
    return connected;
  };
  beforeEach(async () => {
    sandbox = await startSmallSandbox(profile);
  });
  afterEach(async () => {
    for (const connected of open) await connected.close();
    open = [];
    await sandbox.close();
  });

  it('an agent validates, plans, applies with the token, and the next plan has no changes', async () => {
    const agent = await start();
    const validated = await agent.call('svc_validate', { path: 'svc-gitops.yaml' });
    expect(validated).toMatchObject({ isError: false, result: { valid: true, errors: 0 } });

    const plan = await agent.call('svc_plan', {});
    expect(plan.isError).toBe(false);
    expect(plan.result).toMatchObject({
      has_changes: true,
      summary: { ignore: 3, unignore: 0, update: 4, sites: 3, high_risk: 0 },
      confirmation_token: 'token-1',
      expires_at: '2026-11-25T12:05:00.000Z',
      next_action: 'show_plan_and_confirm',
    });
    expect(plan.result.markdown).toMatch(/^## svc-gitops plan/);
    expect(plan.text).toContain('user_confirmed: true');

    const applied = await agent.call('svc_apply', {
      plan_id: plan.result.plan_id,
      confirmation_token: 'token-1',
      user_confirmed: true,
    });
    expect(applied.isError, applied.text).toBe(false);
    // The result echoes what was applied: the plan, who confirmed it, the counts and the sites.
    expect(applied.result).toMatchObject({
      plan_id: plan.result.plan_id,
      applied: true,
      confirmed_by: 'token',
      summary: plan.result.summary,
      counts: { done: 7, failed: 0, skipped: 0, blocked: 0 },
      unverified: 0,
      sites: [
        { site_id: 1, site_url: 'https://one.example.test/', done: 2 },
        { site_id: 2, site_url: 'https://two.example.test/', done: 3 },
        { site_id: 3, site_url: 'https://three.example.test/', done: 2 },
      ],
    });
    expect(applied.text).toMatch(
      /^Plan [0-9a-f]{12} applied \(confirmed with its token\): 7 done, 0 failed, 0 skipped, 0 blocked on 3 site\(s\): https:\/\/one\.example\.test\//,
    );

    const after = await agent.call('svc_plan', {});
    expect(after.result).toMatchObject({ has_changes: false, next_action: 'nothing_to_apply' });
    expect(after.result).not.toHaveProperty('confirmation_token');
    // The dashboard itself: only site 3's core update is left, classic-editor is ignored.
    const pending = await agent.call('list_updates_v1', { per_page: 200 });
    expect(
      (pending.result.updates as Array<{ site_id: number; type: string }>).map((u) => [u.site_id, u.type]),
    ).toEqual([[3, 'core']]);
    const drift = await agent.call('svc_drift', {});
    expect(drift.result).toMatchObject({ drift: false });
  });

  it('apply acts only with a valid token and user_confirmed, each refusal with its code', async () => {
    const clock = testClock();
    const agent = await start({}, clock);
    const missing = await agent.call('svc_apply', { user_confirmed: true });
    expect(missing).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    // The text is the result's JSON, as the vendor's tool server answers.
    expect(JSON.parse(missing.text)).toEqual(missing.result);
    expect(missing.result).toMatchObject({ error: 'PREVIEW_REQUIRED', next_action: 'request_preview_first' });

    const plan = await agent.call('svc_plan', {});
    const token = plan.result.confirmation_token as string;
    const unconfirmed = await agent.call('svc_apply', { confirmation_token: token });
    expect(unconfirmed).toMatchObject({
      isError: false,
      result: { status: 'CONFIRMATION_REQUIRED', plan_id: plan.result.plan_id, confirmation_token: token },
    });
    const conflicting = await agent.call('svc_apply', {
      confirmation_token: token,
      user_confirmed: true,
      dry_run: true,
    });
    expect(conflicting).toMatchObject({ isError: true, result: { code: 'CONFLICTING_PARAMETERS' } });
    const calls = await agent.call('svc_apply', { confirmation_token: token, dry_run: true });
    expect(calls.result).toMatchObject({ dry_run: true });
    expect(calls.text).toMatch(/call/);

    clock.advance(5 * 60_000 + 1);
    const named = { plan_id: plan.result.plan_id, confirmation_token: token, user_confirmed: true };
    const expired = await agent.call('svc_apply', named);
    expect(expired).toMatchObject({ isError: true, result: { code: 'PREVIEW_EXPIRED' } });
    const again = await agent.call('svc_apply', named);
    expect(again).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    // Nothing was applied by any of these calls.
    const still = await agent.call('svc_plan', {});
    expect(still.result.summary).toEqual(plan.result.summary);

    const fresh = still.result.confirmation_token as string;
    const planId = still.result.plan_id;
    // user_confirmed names the plan it confirms; without plan_id nothing is applied.
    const unnamed = await agent.call('svc_apply', { confirmation_token: fresh, user_confirmed: true });
    expect(unnamed).toMatchObject({ isError: true, result: { code: 'INVALID_PARAMETER' } });
    expect(unnamed.text).toMatch(/plan_id is required/);
    const confirmed = { plan_id: planId, confirmation_token: fresh, user_confirmed: true };
    expect((await agent.call('svc_apply', confirmed)).isError).toBe(false);
    const reused = await agent.call('svc_apply', confirmed);
    expect(reused).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
  });

  it('without elicitation: a new plan revokes the older token, and a token confirms only its own plan_id', async () => {
    const agent = await start();
    // Plan A (one site, 2 updates) is shown to the user; the agent then makes plan B (3 sites).
    const planA = await agent.call('svc_plan', { target: ['two.example.test'] });
    expect(planA.result).toMatchObject({ confirmation: 'token', summary: { update: 2, sites: 1 } });
    const planB = await agent.call('svc_plan', {});
    expect(planB.result).toMatchObject({ confirmation: 'token', summary: { update: 4, sites: 3 } });
    const before = await writes(sandbox);

    // A's token died with plan B: at most one apply token is outstanding.
    const stale = await agent.call('svc_apply', {
      plan_id: planA.result.plan_id,
      confirmation_token: planA.result.confirmation_token,
      user_confirmed: true,
    });
    expect(stale).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    // B's token offered as the confirmation of plan A: refused, since the call names A.
    const misused = await agent.call('svc_apply', {
      plan_id: planA.result.plan_id,
      confirmation_token: planB.result.confirmation_token,
      user_confirmed: true,
    });
    expect(misused).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    expect(misused.text).toContain(`does not confirm plan ${planA.result.plan_id}`);
    expect(await writes(sandbox)).toEqual(before);

    // The refused call kept B's token: naming B applies B, and the result says it was B.
    const applied = await agent.call('svc_apply', {
      plan_id: planB.result.plan_id,
      confirmation_token: planB.result.confirmation_token,
      user_confirmed: true,
    });
    expect(applied.isError, applied.text).toBe(false);
    expect(applied.result).toMatchObject({
      plan_id: planB.result.plan_id,
      applied: true,
      summary: { update: 4, sites: 3 },
    });
    expect((applied.result.sites as unknown[]).length).toBe(3);
  });

  it('a stale plan is refused as the CLI refuses it: the touched sites changed, nothing applied', async () => {
    const agent = await start();
    const plan = await agent.call('svc_plan', {});
    await sandboxControl(sandbox)('POST', 'pending', {
      site: 2,
      kind: 'plugin',
      slug: 'akismet/akismet.php',
      to: '5.3.8',
    });
    const applied = await agent.call('svc_apply', {
      plan_id: plan.result.plan_id,
      confirmation_token: plan.result.confirmation_token,
      user_confirmed: true,
    });
    expect(applied).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    expect(applied.text).toMatch(
      /live state changed since the plan was made on 1 site\(s\): https:\/\/two\.example\.test\//,
    );
    // What to do next, in this server's words (not the CLI's `plan --out FILE`).
    expect(applied.text).toContain('call svc_plan again');
    expect(applied.text).not.toContain('--out');
    const ignored = await agent.call('list_ignored_updates_v1', {});
    expect(JSON.stringify(ignored.result)).not.toContain('classic-editor');
  });

  it('safe mode (on by default) refuses a plan with high-risk actions; off, it applies', async () => {
    const guarded = await start({}, testClock(), CORE_CONFIG);
    const plan = await guarded.call('svc_plan', {});
    expect(plan.result).toMatchObject({
      safe_mode_blocked: true,
      next_action: 'blocked_by_safe_mode',
      summary: { high_risk: 1 },
    });
    const refused = await guarded.call('svc_apply', {
      plan_id: plan.result.plan_id,
      confirmation_token: plan.result.confirmation_token,
      user_confirmed: true,
    });
    expect(refused).toMatchObject({ isError: true, result: { code: 'SAFE_MODE_BLOCKED' } });

    const open = await start({ SVC_SAFE_MODE: 'false' }, testClock(), CORE_CONFIG);
    const unguarded = await open.call('svc_plan', {});
    expect(unguarded.result.safe_mode_blocked).toBe(false);
    const applied = await open.call('svc_apply', {
      plan_id: unguarded.result.plan_id,
      confirmation_token: unguarded.result.confirmation_token,
      user_confirmed: true,
    });
    expect(applied.result).toMatchObject({ applied: true, counts: { done: 8, failed: 0 } });
  });

  it('explain answers from the plan: the policy or rule with its file:line, or why nothing happens', async () => {
    const agent = await start();
    const none = await agent.call('svc_explain', { site: '1', item: 'plugin:akismet/akismet.php' });
    expect(none).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    await agent.call('svc_plan', {});
    const update = await agent.call('svc_explain', {
      site: 'one.example.test',
      item: 'plugin:akismet/akismet.php',
    });
    expect(update.result).toMatchObject({
      found: true,
      site: { id: 1 },
      actions: [{ op: 'update', from: '5.3.6', to: '5.3.7' }],
    });
    expect(update.text).toMatch(/svc-gitops\.yaml:\d+/);
    const theme = await agent.call('svc_explain', { site: '2', item: 'astra' });
    expect(theme.result).toMatchObject({
      actions: [{ op: 'update', kind: 'theme', from: '4.11.1', to: '4.11.3' }],
    });
    const held = await agent.call('svc_explain', { site: '1', item: 'classic-editor/classic-editor.php' });
    expect(held.result).toMatchObject({ actions: [{ op: 'ignore' }] });
    expect(held.text).toMatch(/svc-gitops\.yaml:\d+/);
    const core = await agent.call('svc_explain', { site: '3', item: 'core' });
    expect(core.result).toMatchObject({
      actions: [],
      pending: [{ kind: 'core', from: '6.8.1', to: '6.8.3' }],
    });
    expect(core.text).toMatch(/no update policy/);
    const unknown = await agent.call('svc_explain', { site: 'nowhere.test', item: 'core' });
    expect(unknown.result).toMatchObject({ found: false });
  });

  it('show_plan renders the session plan as markdown, text or JSON; resources hold the schema and last plan', async () => {
    const agent = await start();
    const plan = await agent.call('svc_plan', {});
    const json = await agent.call('svc_show_plan', { format: 'json' });
    expect(JSON.parse(json.result.plan as string)).toMatchObject({
      id: plan.result.plan_id,
      format_version: 3,
    });
    const text = await agent.call('svc_show_plan', { plan_id: plan.result.plan_id, format: 'text' });
    expect(text.text).toMatch(/^3 to ignore, 0 to unignore, 4 to update on 3 sites/);
    const last = await agent.client.readResource({ uri: 'svc://plan/last' });
    expect((last.contents[0] as { text: string }).text).toMatch(/^## svc-gitops plan/);
    const schema = await agent.client.readResource({ uri: 'svc://schema/desired-state' });
    expect(JSON.parse((schema.contents[0] as { text: string }).text)).toHaveProperty('$schema');
    const prompts = await agent.client.listPrompts();
    expect(prompts.prompts.map((prompt) => prompt.name)).toEqual([
      'review_pending_updates',
      'plan_staged_rollout',
    ]);
    const prompt = await agent.client.getPrompt({
      name: 'plan_staged_rollout',
      arguments: { config: 'svc-gitops.yaml' },
    });
    expect(JSON.stringify(prompt.messages)).toContain('svc_apply');
  });

  it('validate checks YAML text with file:line:col, and refuses a path outside the working directory', async () => {
    const agent = await start();
    const bad = await agent.call('svc_validate', { yaml: 'version: 1\nignores:\n  unmanged: remove\n' });
    expect(bad.result).toMatchObject({ valid: false, errors: 1 });
    expect(bad.result.diagnostics).toMatchObject([{ file: 'desired-state.yaml', line: 3, col: 3 }]);
    expect(bad.text).toMatch(/did you mean `unmanaged`/);
    const both = await agent.call('svc_validate', { yaml: 'version: 1\n', path: 'svc-gitops.yaml' });
    expect(both).toMatchObject({ isError: true, result: { code: 'INVALID_PARAMETER' } });
    const outside = await agent.call('svc_validate', { path: '../elsewhere.yaml' });
    expect(outside).toMatchObject({ isError: true, result: { code: 'USAGE' } });
    expect(outside.text).toMatch(/outside the working directory/);
    const unknown = await agent.call('svc_plan', { config: 'svc-gitops.yaml', verbose: true });
    expect(unknown).toMatchObject({
      isError: true,
      result: { code: 'INVALID_PARAMETER', message: 'unknown parameter "verbose"' },
    });
    // `config`, as svc_plan and svc_drift take it; the plan tool has no YAML text to offer.
    expect((await agent.call('svc_validate', { config: 'svc-gitops.yaml' })).result).toMatchObject({
      valid: true,
    });
    const planOutside = await agent.call('svc_plan', { config: '../elsewhere.yaml' });
    expect(planOutside.text).not.toMatch(/YAML as text/);
  });

  it('plan refusals speak of the tool: a target that matches no site, a broken desired state', async () => {
    const agent = await start();
    const target = await agent.call('svc_plan', { target: ['nosuch.test'] });
    expect(target).toMatchObject({ isError: true, result: { code: 'USAGE' } });
    expect(target.result).toMatchObject({
      error: {
        code: -32602,
        message: expect.stringMatching(/^target nosuch\.test matches no site of the dashboard/),
      },
    });
    expect(target.text).not.toContain('--target');
    const missing = await agent.call('svc_plan', { config: 'nope.yaml' });
    expect(missing).toMatchObject({ isError: true, result: { code: 'CONFIG_INVALID' } });
    // The problem itself, not only how many there are.
    expect(missing.text).toMatch(/nope\.yaml.*(not found|does not exist|no such)/i);
  });
});
