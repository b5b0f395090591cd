import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderApplyMarkdown } from '../../src/render/apply-markdown.js';
import type { ApplyReport } from '../../src/render/apply-report.js';
import { renderApplyText } from '../../src/render/apply-text.js';
import { type ActionOutcome, dashboardSiteCode } from '../../src/types.js';
import { update } from '../apply/builders.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { REPO, startDemo, tempDir } from './helpers.js';

/**
 * An apply that ran to its end with failures (not interrupted, not stopped) is finished:
 * `apply --resume` has nothing to take up. Its report says what to do for each kind of failure.
 */
describe('a failed apply says what to do next', () => {
  const sandbox = sandboxPer('test', () => startDemo('compat-6.1'));

  it('an update that fails on its site: the next step is the site and a new plan, and --resume is not it', async () => {
    const cwd = tempDir('svc-gitops-failed-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    const env = { ...fastClientEnv(sandbox), HOME: tempDir(), SVC_SAFE_MODE: 'false' };
    // Site 23 (tyrell) fails its wordfence update.
    const run = await cli(['apply', '--auto-approve', '--target', '23'], { env, cwd });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('failed (svc_update_failed): 1');
    expect(run.stdout).toContain('there is nothing for `apply --resume`');
    expect(run.stdout).toMatch(
      /- 1 update\(s\) failed on the site itself .*check those sites in the dashboard/,
    );
    expect(run.stdout.trimEnd().split('\n').at(-1)).toContain('`svc-gitops plan` and apply again');
    // What the step rules out is so: resume has nothing; a new plan holds only the failed update.
    const resume = await cli(['apply', '--resume'], { env, cwd });
    expect(resume.stderr).toContain('there is no interrupted apply to resume');
    const plan = await cli(['plan', '--format', 'json', '--target', '23'], { env, cwd });
    const actions = (JSON.parse(plan.stdout) as { actions: Array<{ slug: string }> }).actions;
    expect(actions.map((a) => a.slug)).toEqual(['wordfence/wordfence.php']);
  });

  it('one step per failure class, in text and markdown alike', () => {
    const outcome = (site: number, extra: Partial<ActionOutcome>): ActionOutcome => ({
      action: update(site, 'plugin', `p${site}/p.php`),
      status: 'failed',
      ...extra,
    });
    const report: ApplyReport = {
      dashboard: 'https://dashboard.example.test',
      approval: 'saved-plan',
      result: {
        plan_id: 'a'.repeat(64),
        started_at: '2026-01-01T00:00:00.000Z',
        finished_at: '2026-01-01T00:00:05.000Z',
        interrupted: false,
        calls: 6,
        outcomes: [
          outcome(1, { code: dashboardSiteCode('svc_update_failed') }),
          outcome(2, { code: 'TIMEOUT' }),
          outcome(3, { code: 'NOT_PERSISTED' }),
          { action: update(4, 'plugin', 'q/q.php'), status: 'done', unverified: true },
          outcome(5, { code: 'FORBIDDEN' }),
          { action: update(6, 'plugin', 'r/r.php'), status: 'blocked', code: 'FORBIDDEN' },
          outcome(7, { code: 'RESOURCE_EXHAUSTED' }),
        ],
      },
      warnings: [],
    };
    for (const rendered of [renderApplyText(report), renderApplyMarkdown(report)]) {
      expect(rendered).toContain('- 2 action(s) were refused to this dashboard user');
      expect(rendered).toContain('- 1 action(s) did not run: the run read as much as SVC_MAX_SESSION_DATA');
      expect(rendered).toContain('- 1 update(s) failed on the site itself');
      expect(rendered).toContain('- 1 call(s) failed at the dashboard');
      expect(rendered).toContain(
        '- 2 action(s) were not confirmed by the dashboard: `svc-gitops plan --refresh`',
      );
      expect(rendered).not.toMatch(/run `svc-gitops apply --resume`/);
    }
    const done: ApplyReport = { ...report, result: { ...report.result, outcomes: [] } };
    expect(renderApplyText(done)).not.toContain('Next (');
  });
});
