import * as fs from 'node:fs';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { ACTION_INPUTS, runAction } from '../../src/cli/action.js';
import type { CliContext } from '../../src/cli/context.js';
import { REPO, startDemo, tempDir } from '../e2e/helpers.js';
import { markdownStructure } from '../helpers/markdown-structure.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';

const RUN_PAGE = 'https://github.example.test/acme/sites/actions/runs/4242';

/**
 * The apply comment (the report the apply template posts on the merged pull request) links the
 * history the apply appended: the Action's entry with the real CLI behind it, against the
 * sandbox, the comment read as GitHub's markdown renders it.
 */
describe('the apply comment links the apply history', () => {
  const sandbox = sandboxPer('suite', () => startDemo('compat-6.1'));

  const rollout = async (dir: string) => {
    writeFileSync(join(dir, 'output.txt'), '');
    const env: CliContext['env'] = {
      ...fastClientEnv(sandbox),
      HOME: dir,
      NO_COLOR: '1',
      SVC_SAFE_MODE: 'false',
      GITHUB_ACTIONS: 'true',
      GITHUB_SERVER_URL: 'https://github.example.test',
      GITHUB_REPOSITORY: 'acme/sites',
      GITHUB_RUN_ID: '4242',
      GITHUB_OUTPUT: join(dir, 'output.txt'),
      RUNNER_TEMP: dir,
      ...Object.fromEntries(ACTION_INPUTS.map((input) => [`INPUT_${input.toUpperCase()}`, ''])),
      INPUT_COMMAND: 'rollout',
      INPUT_CONFIG: 'svc-gitops.yaml',
    };
    let stderr = '';
    const ctx: CliContext = {
      stdout: { write: () => true },
      stderr: { write: (s: string) => (stderr += s) },
      env,
      cwd: dir,
      fs,
      signal: new AbortController().signal,
      now: () => new Date(),
    };
    const code = await runAction(ctx);
    return {
      code,
      stderr,
      comment: fs.existsSync(join(dir, 'svc-gitops-apply-report.md'))
        ? readFileSync(join(dir, 'svc-gitops-apply-report.md'), 'utf8')
        : '',
      outputs: readFileSync(join(dir, 'output.txt'), 'utf8'),
    };
  };

  it('an apply that wrote history ends its comment with the run link; one that wrote none has no link', async () => {
    const dir = tempDir('svc-gitops-history-link-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(dir, 'svc-gitops.yaml'));
    const first = await rollout(dir);
    // Tyrell's wordfence update fails (the demo fleet's one failing update): the apply exits 1.
    expect(first.code, first.stderr).toBe(1);
    const history = join(dir, '.svc-gitops', 'history.jsonl');
    const records = readFileSync(history, 'utf8').trimEnd().split('\n').length;
    expect(records).toBeGreaterThan(1);
    expect(first.outputs).toMatch(new RegExp(`^history-file<<(\\S+)\\n${history}\\n\\1$`, 'm'));

    const lines = first.comment.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      `Per-site history of this apply (${records} records, JSON Lines): artifact \`svc-gitops-history\` of [this workflow run](${RUN_PAGE}); \`svc-gitops history --file FILE\` prints it.`,
    );
    // As GitHub renders it: a link to the run page, the artifact's name as code, no broken table.
    const html = marked.parse(first.comment, { gfm: true, async: false });
    expect(html).toContain(`<a href="${RUN_PAGE}">this workflow run</a>`);
    expect(html).toContain('<code>svc-gitops-history</code>');
    expect(markdownStructure(first.comment).problems).toEqual([]);

    // The same ignores, no update policy: nothing left to apply, so the next run appends
    // nothing, and its comment neither links nor names a history (the file is still there).
    const config = readFileSync(join(dir, 'svc-gitops.yaml'), 'utf8');
    writeFileSync(join(dir, 'svc-gitops.yaml'), config.slice(0, config.indexOf('updates:')));
    const size = fs.statSync(history).size;
    const second = await rollout(dir);
    expect(second.code, second.stderr).toBe(0);
    expect(second.comment).toContain('apply');
    expect(fs.statSync(history).size).toBe(size);
    expect(second.comment).not.toContain('svc-gitops-history');
    expect(second.outputs).not.toContain('history-file');
  }, 60_000);
});
