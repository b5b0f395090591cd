import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Job, parseWorkflow } from './workflow-lint.js';

/**
 * The apply templates' "Download the plan reviewed on the merged pull request" step under real
 * bash, with a stand-in `gh` that answers the REST calls from fixtures (its `--jq` filters run
 * through jq) and records every call. This is the step that decides which plan counts as the
 * reviewed one, so it is run, not only read.
 */
const TEMPLATES = ['examples/github/svc-gitops-apply.yml', 'examples/github/svc-gitops-matrix-apply.yml'];
const STEP = 'Download the plan reviewed on the merged pull request';
const REPO = 'acme/sites';
const MERGE_SHA = 'a'.repeat(40);
const HEAD_SHA = 'b'.repeat(40);
const LATER_SHA = 'c'.repeat(40);
const hasJq = spawnSync('jq', ['--version']).status === 0;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-gitops-apply-download-'));
  writeFileSync(
    join(dir, 'gh'),
    [
      '#!/usr/bin/env node',
      "const { appendFileSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');",
      "const { spawnSync } = require('node:child_process');",
      'const argv = process.argv.slice(2);',
      "appendFileSync(process.env.GH_CALLS, JSON.stringify(argv) + '\\n');",
      "const fixtures = JSON.parse(readFileSync(process.env.GH_FIXTURES, 'utf8'));",
      "if (argv[0] === 'api') {",
      '  const body = fixtures[argv[1]];',
      "  if (body === undefined) { process.stderr.write('gh: HTTP 404 ' + argv[1] + '\\n'); process.exit(1); }",
      "  const jq = argv.indexOf('--jq');",
      '  if (jq < 0) { process.stdout.write(JSON.stringify(body)); process.exit(0); }',
      "  const r = spawnSync('jq', ['-r', argv[jq + 1]], { input: JSON.stringify(body), encoding: 'utf8' });",
      '  process.stdout.write(r.stdout); process.stderr.write(r.stderr); process.exit(r.status);',
      '}',
      "if (argv[0] === 'run' && argv[1] === 'download') {",
      "  const out = argv[argv.indexOf('--dir') + 1];",
      '  mkdirSync(out, { recursive: true });',
      "  writeFileSync(out + '/plan.json', JSON.stringify({ run: argv[2] }));",
      '  process.exit(0);',
      '}',
      'process.exit(2);',
    ].join('\n'),
  );
  chmodSync(join(dir, 'gh'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** GitHub's answers for a pull request merged as MERGE_SHA, planned in this repository and in a fork. */
function fixtures(tip: string): Record<string, unknown> {
  return {
    [`repos/${REPO}/commits/${MERGE_SHA}/pulls`]: [
      { number: 9, merged_at: '2026-11-20T10:00:00Z', head: { sha: HEAD_SHA } },
    ],
    [`repos/${REPO}/commits/main`]: { sha: tip },
    ...Object.fromEntries(
      ['svc-gitops-plan.yml', 'svc-gitops-matrix-plan.yml'].map((workflow) => [
        `repos/${REPO}/actions/workflows/${workflow}/runs?head_sha=${HEAD_SHA}&event=pull_request&status=success`,
        {
          workflow_runs: [
            { id: 300, head_repository: { full_name: 'mallory/sites' } },
            { id: 200, head_repository: { full_name: REPO } },
          ],
        },
      ]),
    ),
  };
}

function runStep(file: string, options: { attempt: number; tip: string }) {
  const workflow = parseWorkflow(file);
  const job = workflow.jobs.apply as Job;
  const step = job.steps.find((s) => s.name === STEP);
  if (!step?.run) throw new Error(`${file}: no "${STEP}" step`);
  const temp = mkdtempSync(join(dir, 'run-'));
  const calls = join(temp, 'calls.jsonl');
  writeFileSync(calls, '');
  writeFileSync(join(temp, 'fixtures.json'), JSON.stringify(fixtures(options.tip)));
  writeFileSync(join(temp, 'step.sh'), step.run);
  // The values the runner gives the step's env: expressions in a push to main.
  const contexts: Record<string, string> = {
    'github.token': 'ghs_token',
    'github.repository': REPO,
    'github.sha': MERGE_SHA,
    'github.ref_name': 'main',
    'github.run_attempt': String(options.attempt),
  };
  const stepEnv = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([name, value]) => {
      const expression = /^\$\{\{\s*([\w.]+)\s*\}\}$/.exec(value)?.[1] ?? '';
      const resolved = contexts[expression];
      if (resolved === undefined) throw new Error(`${file}: unknown value ${value} for ${name}`);
      return [name, resolved];
    }),
  );
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', join(temp, 'step.sh')], {
    env: {
      PATH: `${dir}:${process.env.PATH}`,
      RUNNER_TEMP: temp,
      // The runner's step outputs file: the step names the merged pull request there.
      GITHUB_OUTPUT: join(temp, 'output.txt'),
      GH_CALLS: calls,
      GH_FIXTURES: join(temp, 'fixtures.json'),
      ...(workflow.env ?? {}),
      ...Object.fromEntries(
        Object.entries(job.env ?? {}).map(([k, v]) => [k, v.replace(/\$\{\{[^}]*\}\}/g, 'prod')]),
      ),
      ...stepEnv,
    },
    encoding: 'utf8',
  });
  const plan = join(temp, 'reviewed', 'plan.json');
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    calls: readFileSync(calls, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as string[]),
    output: existsSync(join(temp, 'output.txt')) ? readFileSync(join(temp, 'output.txt'), 'utf8') : '',
    downloaded: existsSync(plan)
      ? (JSON.parse(readFileSync(plan, 'utf8')) as { run: string }).run
      : undefined,
  };
}

describe.skipIf(!hasJq).each(TEMPLATES)('%s: which plan is applied', (file) => {
  it("downloads the plan of the merged pull request's run from this repository, never a fork's", () => {
    const run = runStep(file, { attempt: 1, tip: MERGE_SHA });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.downloaded).toBe('200');
    // The pull request the apply report is posted on.
    expect(run.output).toBe('pr=9\n');
  });

  it('a re-run of an older apply after later merges applies nothing (it would bring back old config)', () => {
    const run = runStep(file, { attempt: 2, tip: LATER_SHA });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('::error');
    expect(run.stdout).toContain(LATER_SHA);
    expect(run.downloaded).toBeUndefined();
    expect(run.calls.some((c) => c[0] === 'run')).toBe(false);
  });

  it('a re-run while the merged commit is still the tip of main goes ahead', () => {
    const run = runStep(file, { attempt: 2, tip: MERGE_SHA });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.downloaded).toBe('200');
  });
});
