import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { expectFitsSchema } from '../helpers/json-schemas.js';
import { demoFleet, fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * Every `--format json` a command prints fits the schema docs/json-output.md names for it, on
 * real runs against the sandbox: validate (valid, invalid, none found), plan, show and drift (the
 * plan file's schema, with and without --group-by), apply (a run with a failed call) and apply --dry-run.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const FLEET = demoFleet();
const MINIMAL = join(ROOT, 'examples/minimal.yaml');
const sandbox = sandboxPer('test', () => startSandbox({ fleet: FLEET }));

function setup() {
  const dir = tempDirForFile('svc-gitops-json-');
  return { dir, env: { ...fastClientEnv(sandbox), SVC_ALLOW_HTTP: 'true', HOME: dir } };
}

describe('--format json documents fit their schemas', () => {
  it('validate: a valid config (with digest), an invalid one (located diagnostics), none found', async () => {
    const { dir, env } = setup();
    const valid = await cli(['validate', '-c', MINIMAL, '--format', 'json'], { cwd: dir, env });
    expect(valid.code).toBe(0);
    expect(expectFitsSchema('validate-report', valid.stdout)).toMatchObject({ valid: true, errors: 0 });

    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'version: 1\npolicies:\n  - name: p\n    max: sideways\n    sites: [a, a]\n');
    const invalid = await cli(['validate', '-c', bad, '--format', 'json'], { cwd: dir, env });
    expect(invalid.code).toBe(1);
    const report = expectFitsSchema('validate-report', invalid.stdout) as {
      diagnostics: Array<{ line?: number }>;
    };
    expect(report).toMatchObject({ valid: false });
    expect(report.diagnostics.some((d) => d.line !== undefined)).toBe(true);

    const none = await cli(['validate', '--format', 'json'], { cwd: dir, env });
    expect(none.code).toBe(1);
    expectFitsSchema('validate-report', none.stdout);
  });

  it('plan and show print the plan file format', async () => {
    const { dir, env } = setup();
    const plan = await cli(['plan', '-c', MINIMAL, '--format', 'json', '--out', join(dir, 'p.json')], {
      cwd: dir,
      env,
    });
    expect(plan.code, plan.stderr).toBe(0);
    expect((expectFitsSchema('plan', plan.stdout).actions as unknown[]).length).toBeGreaterThan(0);
    const show = await cli(['show', join(dir, 'p.json'), '--format', 'json'], { cwd: dir, env });
    expect(show.code, show.stderr).toBe(0);
    expectFitsSchema('plan', show.stdout);
    // With --group-by: the same format, plus its groups section (test/cli/json-groups.test.ts).
    for (const by of ['item', 'site']) {
      const grouped = await cli(['show', join(dir, 'p.json'), '--format', 'json', '--group-by', by], {
        cwd: dir,
        env,
      });
      expect(grouped.code, grouped.stderr).toBe(0);
      expect(expectFitsSchema('plan', grouped.stdout).group_by).toBe(by);
    }
  });

  it('drift prints the plan file format, its verdict on stderr and exit 2', async () => {
    const { dir, env } = setup();
    const drift = await cli(['drift', '-c', MINIMAL, '--format', 'json'], { cwd: dir, env });
    expect(drift.code, drift.stderr).toBe(2);
    expect((expectFitsSchema('plan', drift.stdout).actions as unknown[]).length).toBeGreaterThan(0);
    expect(drift.stderr).toContain('svc-gitops: drift found');
    const grouped = await cli(['drift', '-c', MINIMAL, '--format', 'json', '--group-by', 'item'], {
      cwd: dir,
      env,
    });
    expect(grouped.code, grouped.stderr).toBe(2);
    expect((expectFitsSchema('plan', grouped.stdout).groups as unknown[]).length).toBeGreaterThan(0);
  });

  it('apply: the report of a run with done and failed actions', async () => {
    const { dir, env } = setup();
    // The demo fleet's wordfence update on tyrell fails: the report carries a failed outcome's code.
    const run = await cli(['apply', '-c', MINIMAL, '--auto-approve', '--format', 'json'], {
      cwd: dir,
      env: { ...env, SVC_SAFE_MODE: 'false' },
    });
    const report = expectFitsSchema('apply-report', run.stdout) as {
      counts: Record<string, number>;
      outcomes: Array<{ status: string; code?: string }>;
    };
    expect(report.counts.done).toBeGreaterThan(0);
    expect(report.outcomes.some((o) => o.status === 'failed' && o.code)).toBe(true);
    expect(run.code).toBe(1);
  });

  it('apply --dry-run: the calls it would send, and nothing is sent', async () => {
    const { dir, env } = setup();
    const actions = async () =>
      (
        JSON.parse((await cli(['plan', '-c', MINIMAL, '--format', 'json'], { cwd: dir, env })).stdout) as {
          actions: unknown[];
        }
      ).actions;
    const before = await actions();
    const run = await cli(['apply', '-c', MINIMAL, '--dry-run', '--format', 'json'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const document = expectFitsSchema('apply-dry-run', run.stdout) as {
      calls: number;
      phases: Array<{ kind: string; calls: unknown[] }>;
    };
    expect(document.calls).toBeGreaterThan(0);
    expect(document.calls).toBe(document.phases.reduce((n, p) => n + p.calls.length, 0));
    expect(document.phases.map((p) => p.kind)).toEqual(['ignore', 'update']);
    expect(await actions()).toEqual(before);
    const text = await cli(['apply', '-c', MINIMAL, '--dry-run'], { cwd: dir, env });
    expect(text.stdout).toMatch(/^Dry run: \d+ call\(s\) would be sent to /m);
  });
});
