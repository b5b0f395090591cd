import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import {
  PROFILES,
  planSchemaErrors,
  REPO,
  resetStats,
  sandboxEnv,
  sandboxStats,
  startDemo,
  tempDir,
} from './helpers.js';

const SUMMARY_LINE = /^(\d+) to ignore, (\d+) to unignore, (\d+) to update on (\d+) sites/;

/**
 * `svc-gitops plan` end to end: the real CLI, settings from the environment, the real client
 * against the sandbox serving the demo fleet. Nothing here mutates the sandbox except
 * `--refresh`, which only re-syncs (pending updates stay as they are), so one sandbox serves
 * the whole block.
 */
describe.each(PROFILES)('plan against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  const run = (...argv: string[]) => cli(['plan', ...argv], { env, cwd: REPO });

  beforeAll(async () => {
    sandbox = await startDemo(profile);
    env = sandboxEnv(sandbox, tempDir());
  });
  afterAll(() => sandbox.close());

  it('prints text: the summary line first, then actions by site with + and ~ markers, no colour', async () => {
    const result = await run('-c', 'examples/agency.yaml');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(SUMMARY_LINE);
    expect(result.stdout).toContain('site 4 https://acme-shop.demo.test/\n');
    expect(result.stdout).toMatch(/^ {2}\+ ignore {3}plugin classic-editor\/classic-editor\.php/m);
    expect(result.stdout).toMatch(/^ {2}~ update {3}core 6\.8\.1 → 6\.8\.3 \[high risk\]/m);
    expect(result.stdout).not.toContain('\u001b[');
    expect(result.stderr).toContain(`Read 25 sites`);
  });

  it('colours text only on a terminal, and never with NO_COLOR', async () => {
    const argv = ['plan', '-c', 'examples/agency.yaml'];
    const terminal = await cli(argv, { env: { ...env, NO_COLOR: undefined }, cwd: REPO, tty: true });
    const noColour = await cli(argv, { env: { ...env, NO_COLOR: '1' }, cwd: REPO, tty: true });
    const piped = await cli(argv, { env: { ...env, NO_COLOR: undefined }, cwd: REPO, tty: false });
    expect(terminal.stdout).toContain('\u001b[');
    expect(noColour.stdout).not.toContain('\u001b[');
    expect(piped.stdout).not.toContain('\u001b[');
  });

  it('prints markdown: heading, summary table, collapsible details', async () => {
    const result = await run('-c', 'examples/agency.yaml', '--format', 'markdown');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith('## svc-gitops plan\n')).toBe(true);
    expect(result.stdout).toMatch(/\| to ignore \| to unignore \| to update \| sites \| high risk \|/);
    expect(result.stdout).toContain('<details');
    expect(result.stdout).toContain('</details>');
  });

  it('prints JSON that matches the plan schema and agrees with the text summary', async () => {
    const json = await run('-c', 'examples/agency.yaml', '--format', 'json');
    const text = await run('-c', 'examples/agency.yaml');
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as Plan;
    expect(planSchemaErrors(plan)).toBe('');
    expect(plan.dashboard.url).toBe(`${sandbox.url}/`);
    const [, ignore, unignore, update, sites] = SUMMARY_LINE.exec(text.stdout) ?? [];
    expect(plan.summary).toMatchObject({
      ignore: Number(ignore),
      unignore: Number(unignore),
      update: Number(update),
      sites: Number(sites),
    });
    expect(plan.actions.length).toBe(plan.summary.ignore + plan.summary.unignore + plan.summary.update);
    expect(plan.summary.update).toBeGreaterThan(0);
  });

  it('the same inputs at the same time give the same bytes and id', async () => {
    const now = () => new Date('2026-11-22T06:00:00.000Z');
    const argv = ['plan', '-c', 'examples/agency.yaml', '--format', 'json'];
    const first = await cli(argv, { env, cwd: REPO, now });
    const second = await cli(argv, { env, cwd: REPO, now });
    expect(first.code, first.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect((JSON.parse(first.stdout) as Plan).created_at).toBe('2026-11-22T06:00:00.000Z');
  });

  it('--out saves the same plan as JSON, valid against the schema, whatever the printed format', async () => {
    const dir = tempDir();
    const out = join(dir, 'plans/plan.json');
    const json = await run('-c', 'examples/multi-file', '--format', 'json', '--out', out);
    expect(json.code, json.stderr).toBe(0);
    const saved = readFileSync(out, 'utf8');
    expect(saved).toBe(json.stdout);
    expect(planSchemaErrors(JSON.parse(saved))).toBe('');
    expect(json.stderr).toMatch(/Saved plan [0-9a-f]{12} to .*plans\/plan\.json/);

    const text = await run('-c', 'examples/multi-file', '--out', out);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(SUMMARY_LINE);
    expect(planSchemaErrors(JSON.parse(readFileSync(out, 'utf8')))).toBe('');
  });

  it('--detailed-exitcode: 2 when the plan has changes, 0 when it has none', async () => {
    const changes = await run('-c', 'examples/agency.yaml', '--detailed-exitcode');
    expect(changes.code, changes.stderr).toBe(2);
    // The suspended legacy site is outside agency.yaml's selection: nothing to change there.
    const none = await run(
      '-c',
      'examples/agency.yaml',
      '--detailed-exitcode',
      '--target',
      'legacy-2.demo.test',
    );
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toMatch(/^0 to ignore, 0 to unignore, 0 to update|no changes/i);
    const plain = await run('-c', 'examples/agency.yaml');
    expect(plain.code).toBe(0);
  });

  it.each([
    ['an id', '4', (plan: Plan) => plan.actions.every((a) => a.site_id === 4)],
    ['a domain', 'acme-shop.demo.test', (plan: Plan) => plan.actions.every((a) => a.site_id === 4)],
    [
      'a glob',
      'acme-*.demo.test',
      (plan: Plan) =>
        plan.actions.every((a) => a.site_url.startsWith('https://acme-')) &&
        new Set(plan.actions.map((a) => a.site_id)).size > 1,
    ],
  ])('--target by %s limits the plan to the matching sites', async (_how, target, onlyMatching) => {
    const result = await run('-c', 'examples/agency.yaml', '--format', 'json', '--target', target);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as Plan;
    expect(plan.actions.length).toBeGreaterThan(0);
    expect(onlyMatching(plan)).toBe(true);
  });

  it('--target naming no site fails with exit 1 and says which target', async () => {
    const result = await run('-c', 'examples/agency.yaml', '--target', '4', '--target', 'nowhere.demo.test');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--target nowhere.demo.test matches no site');
    expect(result.stderr).toContain('hint:');
  });

  it('a plan file caught by the variadic --target gets a hint to put it first or end the list with --', async () => {
    const result = await cli(['apply', '-c', 'examples/agency.yaml', '--target', '4', 'plan.json'], {
      env,
      cwd: REPO,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--target plan.json matches no site');
    expect(result.stderr).toContain(
      'put the plan file first (svc-gitops apply plan.json …) or end the list with --',
    );
  });

  it('--refresh syncs the selected sites through sync-sites-v1, then reads again', async () => {
    await resetStats(sandbox);
    const result = await run('-c', 'examples/agency.yaml', '--refresh', '--target', 'acme-*.demo.test');
    expect(result.code, result.stderr).toBe(0);
    const stats = await sandboxStats(sandbox);
    expect(stats.abilities['svc/sync-sites-v1']).toBe(1);
    expect(stats.requests['POST /batch']).toBeUndefined();
    expect(stats.abilities['svc/list-updates-v1']).toBeGreaterThanOrEqual(2);

    await resetStats(sandbox);
    await run('-c', 'examples/agency.yaml');
    expect((await sandboxStats(sandbox)).requests['POST /batch']).toBeUndefined();
  });

  it('--group-by item lists each item once with its sites under it', async () => {
    const result = await run('-c', 'examples/minimal.yaml', '--group-by', 'item', '--target', '1', '2');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^plugin akismet\/akismet\.php/m);
    expect(result.stdout).toMatch(
      /^ {2}~ update {3}site 1 https:\/\/staging-1\.demo\.test\/ 5\.3\.6 → 5\.3\.7/m,
    );
    expect(result.stdout).toMatch(
      /^ {2}~ update {3}site 2 https:\/\/staging-2\.demo\.test\/ 5\.3\.6 → 5\.3\.7/m,
    );
    expect(result.stdout.match(/^plugin akismet\/akismet\.php/gm)).toHaveLength(1);
  });

  it('the offline demo site gets no actions and the plan says why', async () => {
    const result = await run('-c', 'examples/minimal.yaml', '--format', 'json');
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as Plan;
    const offline = 'https://legacy-1.demo.test/';
    const noted = plan.notes.find((note) => note.kind === 'offline-site')?.site_ids ?? [];
    expect(noted.length).toBeGreaterThan(0);
    const untouched = (action: Plan['actions'][number]) =>
      action.site_url === offline || noted.includes(action.site_id);
    expect(plan.actions.filter(untouched)).toEqual([]);
  });
});
