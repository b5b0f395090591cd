import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planId } from '../../src/plan/plan-id.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { REPO, resetStats, sandboxEnv, sandboxStats, startDemo, tempDir } from './helpers.js';

/**
 * `svc-gitops show PLANFILE`: a plan saved by `plan --out` against the sandbox, rendered again
 * without a dashboard; an edited plan is refused as apply refuses it.
 */
describe('show a saved plan', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let dir: string;
  let saved: string;
  let planned: { text: string; markdown: string };

  beforeAll(async () => {
    sandbox = await startDemo('compat-6.1');
    dir = tempDir();
    env = sandboxEnv(sandbox, dir);
    saved = join(dir, 'plan.json');
    const config = ['-c', 'examples/agency.yaml'];
    const text = await cli(['plan', ...config, '--out', saved], { env, cwd: REPO });
    expect(text.code, text.stderr).toBe(0);
    const markdown = await cli(['plan', ...config, '--format', 'markdown'], { env, cwd: REPO });
    planned = { text: text.stdout, markdown: markdown.stdout };
  });
  afterAll(() => sandbox.close());

  it('renders the saved plan as plan printed it, in every format, without a request', async () => {
    await resetStats(sandbox);
    const noDashboard = { HOME: dir, NO_COLOR: '1' };
    const text = await cli(['show', saved], { env: noDashboard, cwd: REPO });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(planned.text);
    expect(text.stderr).toBe('');

    const json = await cli(['show', saved, '--format', 'json'], { env: noDashboard, cwd: REPO });
    expect(json.stdout).toBe(readFileSync(saved, 'utf8'));

    // The markdown differs from the one planned above only by the plan's id and times.
    const markdown = await cli(['show', saved, '--format', 'markdown'], { env: noDashboard, cwd: REPO });
    const plan = JSON.parse(readFileSync(saved, 'utf8')) as Plan;
    expect(markdown.stdout).toContain(plan.id.replace(/^sha256:/, '').slice(0, 12));
    const withoutTimes = (s: string) => s.replace(/Plan `[^`]+`.*\n/, '');
    expect(withoutTimes(markdown.stdout)).toBe(withoutTimes(planned.markdown));

    const byItem = await cli(['show', saved, '--group-by', 'item'], { env: noDashboard, cwd: REPO });
    expect(byItem.stdout).not.toBe(text.stdout);
    expect((await sandboxStats(sandbox)).requests_total).toBe(0);
  });

  it('exits 2 with --detailed-exitcode when the plan has changes', async () => {
    const run = await cli(['show', saved, '--detailed-exitcode'], { env, cwd: REPO });
    expect(run.code).toBe(2);
  });

  it('warns about an expired plan but still shows it', async () => {
    const later = () => new Date(Date.now() + 365 * 24 * 3600_000);
    const run = await cli(['show', saved], { env, cwd: REPO, now: later });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: this plan expired at .*apply would refuse it/);
    expect(run.stdout).toBe(planned.text);
  });

  it('refuses an edited plan, and a file that is not a plan, with exit 1 and no stack trace', async () => {
    const plan = JSON.parse(readFileSync(saved, 'utf8')) as Plan;
    const edited = join(dir, 'edited.json');
    const [first, ...rest] = plan.actions;
    const actions = [{ ...first, slug: 'evil/evil.php' }, ...rest];
    writeFileSync(edited, JSON.stringify({ ...plan, actions }));
    const run = await cli(['show', edited], { env, cwd: REPO });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('[PREVIEW_REQUIRED]');
    expect(run.stderr).toContain('changed after planning');
    expect(run.stdout).toBe('');

    const notJson = join(dir, 'not-a-plan.json');
    writeFileSync(notJson, 'version: 1\n');
    const wrong = await cli(['show', notJson], { env, cwd: REPO });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('[PLAN_INVALID]');
    expect(wrong.stderr).not.toMatch(/\n\s+at /);

    // A plan of an older format, consistent with its id, is refused by its version, not misread.
    const { id: _id, ...content } = { ...plan, format_version: 2 };
    const older = join(dir, 'older.json');
    writeFileSync(older, JSON.stringify({ ...content, id: planId(content as unknown as Omit<Plan, 'id'>) }));
    const old = await cli(['show', older], { env, cwd: REPO });
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('[PLAN_INVALID]');
    expect(old.stderr).toContain('format_version is 2, expected 3');

    const missing = await cli(['show', join(dir, 'missing.json')], { env, cwd: REPO });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read the plan file');
  });
});
