import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';

/**
 * examples/github/example-comment.md is the pull-request comment that `svc-gitops comment`
 * renders for examples/minimal.yaml against the sandbox's demo fleet, so the README shows what
 * reviewers really see. Only what differs per run is normalised: the sandbox's port and the plan
 * id (which covers that URL). UPDATE_GOLDEN=1 rewrites the file after an intended change.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLE = join(ROOT, 'examples/github/example-comment.md');
const update = process.env.UPDATE_GOLDEN === '1';

let sandbox: RunningSandbox;
let dir: string;
beforeAll(async () => {
  const fleet = readFileSync(join(ROOT, 'examples/sandbox/demo-fleet.yaml'), 'utf8');
  sandbox = await startSandbox({ fleet: parseFleet(fleet, 'demo-fleet.yaml') });
  dir = mkdtempSync(join(tmpdir(), 'svc-gitops-example-comment-'));
  writeFileSync(join(dir, 'svc-gitops.yaml'), readFileSync(join(ROOT, 'examples/minimal.yaml'), 'utf8'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function renderExample(): Promise<string> {
  const run = await cli(['comment', '--dry-run', '--out', 'plan.json'], {
    cwd: dir,
    env: {
      ...sandbox.env(),
      HOME: dir,
      GITHUB_REPOSITORY: 'your-org/sites',
      GITHUB_RUN_ID: '1234',
      GITHUB_SHA: '4f2a9c1e0b7d3a5f6e8c9d0b1a2f3e4d5c6b7a80',
    },
    now: () => new Date('2026-11-20T10:00:00Z'),
  });
  expect(run.code, run.stderr).toBe(0);
  const { id } = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as { id: string };
  const port = new URL(sandbox.url).port;
  return run.stdout
    .replaceAll(id, '<plan id: sha256 of the plan>')
    .replaceAll(id.slice(0, 12), '<plan id>')
    .replaceAll(`127.0.0.1:${port}`, '127.0.0.1:PORT');
}

describe('the example pull-request comment', () => {
  it('is what svc-gitops renders for examples/minimal.yaml on the demo fleet', async () => {
    const rendered = await renderExample();
    if (update || !existsSync(EXAMPLE)) {
      if (!update) throw new Error(`missing ${EXAMPLE}: run with UPDATE_GOLDEN=1`);
      writeFileSync(EXAMPLE, rendered);
    }
    expect(rendered).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  it("the README's excerpt is taken from it line by line", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Use it in GitHub Actions'));
    const excerpt = /```markdown\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(excerpt, 'a ```markdown block in "Use it in GitHub Actions"').toBeDefined();
    const lines = new Set(readFileSync(EXAMPLE, 'utf8').split('\n'));
    const shown = (excerpt ?? '').split('\n').filter((line) => line !== '…');
    expect(shown.length).toBeGreaterThan(8);
    for (const line of shown) expect(lines.has(line), line).toBe(true);
  });
});
