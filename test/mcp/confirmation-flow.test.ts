import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { resetStats, sandboxStats } from '../e2e/helpers.js';
import { fastClientEnv, sandboxControl } from '../helpers/sandbox.js';
import { type Connected, connect, startSmallSandbox, testClock } from './helpers.js';

type Update = { site_id: number; type: string; slug: string };

/**
 * The two-step flow of spec §7 against the dashboard itself: the `next` sandbox profile's gated
 * update abilities and unignore ability declare `dry_run` and `confirm` (dashboard-facts §9).
 */
describe('destructive abilities with confirm (the next-release sandbox)', () => {
  let sandbox: RunningSandbox;
  let open: Connected[] = [];
  const start = async (env: Record<string, string>, clock = testClock()) => {
    const connected = await connect({ env: fastClientEnv(sandbox, env), clock });
    open.push(connected);
    return connected;
  };
  const pending = async (agent: Connected, site: number) => {
    const listed = await agent.call('list_updates_v1', { site_ids_or_domains: [site], per_page: 200 });
    return (listed.result.updates as Update[]).map((update) => `${update.type}:${update.slug}`);
  };
  beforeEach(async () => {
    sandbox = await startSmallSandbox('next');
  });
  afterEach(async () => {
    for (const connected of open) await connected.close();
    open = [];
    await sandbox.close();
  });

  it('lists them as destructive with user_confirmed and confirmation_token; safe mode blocks them first', async () => {
    const agent = await start({});
    const { tools } = await agent.client.listTools();
    const plugins = tools.find((tool) => tool.name === 'update_site_plugins_v1');
    expect(plugins?.annotations).toMatchObject({ destructiveHint: true });
    expect(Object.keys(plugins?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['dry_run', 'confirm', 'preview_token', 'user_confirmed', 'confirmation_token']),
    );
    const unignore = tools.find((tool) => tool.name === 'unignore_site_updates_v1');
    expect(unignore?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    await resetStats(sandbox);
    const blocked = await agent.call('update_site_plugins_v1', {
      site_id_or_domain: 1,
      user_confirmed: true,
    });
    expect(blocked).toMatchObject({ isError: true, result: { code: 'SAFE_MODE_BLOCKED' } });
    expect((await sandboxStats(sandbox)).requests_total).toBe(0);
  });

  it('preview → token → confirm runs once; every wrong confirmation is refused with its code', async () => {
    const clock = testClock();
    const agent = await start({ SVC_SAFE_MODE: 'false' }, clock);
    const before = await pending(agent, 1);
    expect(before).toContain('plugin:akismet/akismet.php');

    const preview = await agent.call('update_site_plugins_v1', { site_id_or_domain: 1 });
    expect(preview).toMatchObject({
      isError: false,
      result: {
        status: 'CONFIRMATION_REQUIRED',
        next_action: 'show_preview_and_confirm',
        preview: { dry_run: true, would_affect: expect.any(Object) },
        confirmation_token: 'token-1',
        expires_at: '2026-11-25T12:05:00.000Z',
        metadata: {
          tool: 'update_site_plugins_v1',
          ability: 'svc/update-site-plugins-v1',
          expiresIn: '5 minutes',
        },
      },
    });
    expect(await pending(agent, 1)).toEqual(before);

    const none = await agent.call('update_site_plugins_v1', { site_id_or_domain: 1, user_confirmed: true });
    expect(none).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    const conflicting = await agent.call('update_site_plugins_v1', {
      site_id_or_domain: 1,
      user_confirmed: true,
      dry_run: true,
      confirmation_token: 'token-1',
    });
    expect(conflicting).toMatchObject({ isError: true, result: { code: 'CONFLICTING_PARAMETERS' } });
    const otherArgs = await agent.call('update_site_plugins_v1', {
      site_id_or_domain: 2,
      user_confirmed: true,
      confirmation_token: 'token-1',
    });
    expect(otherArgs).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    expect(otherArgs.text).toMatch(/other arguments/);
    expect(await pending(agent, 1)).toEqual(before);

    clock.advance(5 * 60_000 + 1);
    const expired = await agent.call('update_site_plugins_v1', {
      site_id_or_domain: 1,
      user_confirmed: true,
      confirmation_token: 'token-1',
    });
    expect(expired).toMatchObject({ isError: true, result: { code: 'PREVIEW_EXPIRED' } });
    expect(await pending(agent, 1)).toEqual(before);
    await agent.call('update_site_plugins_v1', { site_id_or_domain: 1, dry_run: true });

    await agent.call('update_site_plugins_v1', { site_id_or_domain: 1 });
    const ran = await agent.call('update_site_plugins_v1', {
      site_id_or_domain: 1,
      user_confirmed: true,
      confirmation_token: 'token-3',
    });
    expect(ran.isError, ran.text).toBe(false);
    expect(ran.result).toMatchObject({ dry_run: false });
    expect((await pending(agent, 1)).filter((item) => item.startsWith('plugin:'))).toEqual([]);
    const again = await agent.call('update_site_plugins_v1', {
      site_id_or_domain: 1,
      user_confirmed: true,
      confirmation_token: 'token-3',
    });
    expect(again).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
  });

  it('a confirmation with other arguments is refused and leaves the token for the right ones', async () => {
    const agent = await start({ SVC_SAFE_MODE: 'false' });
    const preview = await agent.call('update_site_plugins_v1', { site_id_or_domain: 1 });
    const token = preview.result.confirmation_token;
    const wrong = await agent.call('update_site_plugins_v1', {
      site_id_or_domain: 2,
      user_confirmed: true,
      confirmation_token: token,
    });
    expect(wrong).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    const right = await agent.call('update_site_plugins_v1', {
      site_id_or_domain: 1,
      user_confirmed: true,
      confirmation_token: token,
    });
    expect(right.isError, right.text).toBe(false);
    expect((await pending(agent, 1)).filter((item) => item.startsWith('plugin:'))).toEqual([]);
  });

  it('a confirmation acts only on the effect the user saw: a changed dry run is refused', async () => {
    const agent = await start({ SVC_SAFE_MODE: 'false' });
    const args = { site_id_or_domain: 1 };
    const preview = await agent.call('update_site_plugins_v1', args);
    // A newer akismet is published after the user approved the preview.
    await sandboxControl(sandbox)('POST', 'pending', {
      site: 1,
      kind: 'plugin',
      slug: 'akismet/akismet.php',
      to: '9.9.9',
    });
    await resetStats(sandbox);
    const refused = await agent.call('update_site_plugins_v1', {
      ...args,
      user_confirmed: true,
      confirmation_token: preview.result.confirmation_token,
    });
    expect(refused).toMatchObject({ isError: true, result: { code: 'PREVIEW_REQUIRED' } });
    expect(refused.text).toContain('the effect changed since the preview the user approved');
    // Only the new dry run went out; nothing was updated.
    expect((await sandboxStats(sandbox)).requests_total).toBe(1);
    expect(await pending(agent, 1)).toContain('plugin:akismet/akismet.php');

    const again = await agent.call('update_site_plugins_v1', args);
    const done = await agent.call('update_site_plugins_v1', {
      ...args,
      user_confirmed: true,
      confirmation_token: again.result.confirmation_token,
    });
    expect(done.isError, done.text).toBe(false);
    expect((await pending(agent, 1)).filter((item) => item.startsWith('plugin:'))).toEqual([]);
  });

  it('a destructive DELETE ability (unignore) previews through its query and confirms', async () => {
    const agent = await start({ SVC_SAFE_MODE: 'false' });
    // ignore-site-plugins declares no `confirm`: as a write, only an operator's
    // requireUserConfirmation false lets it run from a tool.
    const direct = await start({ SVC_SAFE_MODE: 'false', SVC_REQUIRE_USER_CONFIRMATION: 'false' });
    const ignored = await direct.call('ignore_site_plugins_v1', {
      site_id_or_domain: 1,
      action: 'add',
      slugs: ['akismet/akismet.php'],
    });
    expect(ignored.isError, ignored.text).toBe(false);
    const args = { site_id_or_domain: 1, type: 'plugin', slugs: ['akismet/akismet.php'] };
    const preview = await agent.call('unignore_site_updates_v1', args);
    expect(preview.result).toMatchObject({ status: 'CONFIRMATION_REQUIRED', preview: { dry_run: true } });
    const done = await agent.call('unignore_site_updates_v1', {
      ...args,
      user_confirmed: true,
      confirmation_token: preview.result.confirmation_token,
    });
    expect(done.isError, done.text).toBe(false);
    expect(done.result).toMatchObject({ dry_run: false, removed: expect.any(Array) });
    expect(await pending(agent, 1)).toContain('plugin:akismet/akismet.php');
  });
});
