import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { driftIssueBody, renderPlanMarkdown } from '../../src/render/index.js';
import { planCommentFrame } from '../../src/render/plan-comment.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { pluginUpdateFleet, sandboxEnv, tempDir } from './helpers.js';

/**
 * A halted rollout stays loud: once a wave is held because of unhealthy sites, every later plan,
 * drift and apply exits 3 and says so on its first line, until a health check passes.
 */
const FLEET = pluginUpdateFleet(4);
const config = (maxUnhealthy: number) => `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
rollout:
  health: {max_unhealthy: ${maxUnhealthy}}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: rest, sites: [all]}
`;
const T0 = new Date('2026-11-23T10:00:00Z');
const hours = (n: number) => new Date(T0.getTime() + n * 3_600_000);
const HALT = `Rollout halted at wave canary: 1 site unhealthy since ${T0.toISOString()} (site 2 https://site-2.demo.test/: offline (HTTP 500))`;

describe('a halted rollout, against the sandbox', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0' };
    await sandboxControl(sandbox)('PUT', 'health-faults', [
      { site: 2, item: 'plugin:akismet/akismet.php', version: '5.3.7' },
    ]);
  });
  const run = (argv: string[], at: Date) => cli(argv, { env, cwd: dir, now: () => at });
  const firstLine = (text: string) => text.split('\n')[0];

  it('every later plan, drift and apply exits 3 with the halt on its first line', async () => {
    writeFileSync(join(dir, 'svc-gitops.yaml'), config(0));
    // Beyond the canary, a second plugin: what the rollout goes on with once healed (akismet
    // 5.3.7 broke the canary and stays quarantined).
    for (const site of [3, 4])
      await fetch(`${sandbox.url}/__sandbox/pending`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ site, kind: 'plugin', slug: 'hello-dolly/hello.php', from: '1.6', to: '1.7' }),
      });
    const halting = await run(['apply', '--auto-approve'], T0);
    expect(halting.code).toBe(1);
    expect(halting.stdout).toContain('Apply stopped (wave canary left unhealthy sites)');

    const text = await run(['plan'], hours(1));
    expect(text.code).toBe(3);
    expect(firstLine(text.stdout)).toBe(HALT);
    const detailed = await run(['plan', '--detailed-exitcode'], hours(1));
    expect(detailed.code).toBe(3);
    const markdown = await run(['plan', '--format', 'markdown'], hours(1));
    expect(firstLine(markdown.stdout)).toMatch(/^\*\*Rollout halted at wave canary: 1 site unhealthy since /);
    const json = await run(['plan', '--format', 'json'], hours(1));
    const plan = JSON.parse(json.stdout) as Plan;
    expect(plan.rollout_halt).toMatchObject({
      wave: 'canary',
      since: T0.toISOString(),
      unhealthy: [
        { site_id: 2, problem: 'offline (HTTP 500)', after: ['plugin akismet/akismet.php 5.3.6 → 5.3.7'] },
      ],
    });
    // The PR comment and the drift issue put it first, under their hidden marker, once.
    const frame = planCommentFrame({
      marker: '<!-- m -->',
      configKey: 'svc-gitops.yaml',
      plan,
      artifact: { name: 'plan' },
      now: hours(1),
    });
    expect(frame.head.split('\n')[1]).toMatch(/^\*\*Rollout halted at wave canary: 1 site unhealthy since /);
    const comment = frame.head + renderPlanMarkdown(plan, { haltAbove: true });
    expect(comment.match(/Rollout halted/g)).toHaveLength(1);
    const issue = driftIssueBody({
      marker: '<!-- d -->',
      configKey: 'svc-gitops.yaml',
      plan,
      planMarkdown: renderPlanMarkdown(plan),
      now: hours(1),
    });
    expect(issue.split('\n')[1]).toMatch(/^\*\*Rollout halted at wave canary: 1 site unhealthy since /);
    expect(issue.match(/Rollout halted/g)).toHaveLength(1);

    const drift = await run(['drift'], hours(2));
    expect(drift.code).toBe(3);
    expect(firstLine(drift.stdout)).toBe(HALT);
    expect(drift.stdout).toContain('svc-gitops: drift found');

    const later = await run(
      ['apply', '--auto-approve', '--format', 'markdown', '--out', join(dir, 'r.md')],
      hours(3),
    );
    expect(later.code).toBe(3);
    // Nothing to apply: the report file (the step summary's) still leads with the halt.
    expect(firstLine(readFileSync(join(dir, 'r.md'), 'utf8'))).toMatch(/^\*\*Rollout halted at wave canary/);
    const textApply = await run(['apply', '--auto-approve'], hours(3));
    expect(textApply.code).toBe(3);
    expect(firstLine(textApply.stdout)).toBe(HALT);

    // Healed: the next check clears the halt and the held wave goes.
    await fetch(`${sandbox.url}/__sandbox/health-faults`, { method: 'PUT', body: '[]' });
    const healed = await run(['apply', '--auto-approve'], hours(4));
    expect(healed.code, healed.stdout + healed.stderr).toBe(0);
    expect(healed.stdout).not.toContain('Rollout halted');
    expect(healed.stdout).toContain('Apply complete: 2 done');
  });

  it('an apply that leaves unhealthy sites within the allowance ends with a warning, not ✅ (text)', async () => {
    writeFileSync(join(dir, 'svc-gitops.yaml'), config(1));
    const text = await run(['apply', '--auto-approve'], T0);
    expect(text.stdout).toContain(
      'Apply complete with warnings (1 unhealthy site within the allowance): 4 done, 0 failed',
    );
  });

  it('an apply that leaves unhealthy sites within the allowance ends with a warning, not ✅ (markdown)', async () => {
    writeFileSync(join(dir, 'svc-gitops.yaml'), config(1));
    const markdown = await run(['apply', '--auto-approve', '--format', 'markdown'], T0);
    expect(markdown.stdout).toContain('### ⚠️ svc-gitops apply (1 unhealthy site within the allowance)');
    expect(markdown.stdout).not.toContain('✅ svc-gitops apply');
  });
});
