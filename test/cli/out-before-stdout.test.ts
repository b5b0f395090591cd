import { describe, expect, it } from 'vitest';
import { run } from '../apply/cli-helpers.js';
import { startWorld, type World } from '../apply/world.js';
import { expectFitsSchema } from '../helpers/json-schemas.js';
import { closedAfterEach } from '../helpers/lifecycle.js';

/**
 * A file a command writes (`--out`, the step summary, the outputs) is complete before stdout
 * sees a byte: a reader that closes the pipe early (`plan --out p.json | head -1`) ends the
 * process at its next write to stdout, which must not cost the file.
 */
const openWorld = closedAfterEach(startWorld);

/** The files' texts at the first write to stdout (undefined: the file was not there). */
function atFirstStdout(w: World, paths: string[]) {
  let seen: Array<string | undefined> | undefined;
  return {
    onStdout: () => {
      seen ??= paths.map((path) =>
        w.fs.existsSync(path) ? String(w.fs.readFileSync(path, 'utf8')) : undefined,
      );
    },
    files: () => seen,
  };
}

describe('files written before stdout', () => {
  it('plan --out: the saved plan is whole when the plan is printed', async () => {
    const w = await openWorld();
    const probe = atFirstStdout(w, ['/work/p.json']);
    const plan = await run(w, ['plan', '--out', 'p.json'], { onStdout: probe.onStdout });
    expect(plan.code, plan.stderr).toBe(0);
    const [saved] = probe.files() ?? [];
    expect(saved).toBeDefined();
    expect(JSON.parse(saved!).actions.length).toBeGreaterThan(0);
    expect(saved).toBe(w.fs.readFileSync('/work/p.json', 'utf8'));
  });

  it('apply --out: the report file is whole when the report is printed', async () => {
    const w = await openWorld();
    const probe = atFirstStdout(w, ['/work/rep.json']);
    const apply = await run(w, ['apply', '--auto-approve', '--format', 'json', '--out', 'rep.json'], {
      onStdout: probe.onStdout,
    });
    expect(apply.code, apply.stderr).toBe(0);
    const [report] = probe.files() ?? [];
    expect(report).toBe(apply.stdout);
  });

  it('comment --dry-run --out: plan files, step summary and outputs are written before the body is printed', async () => {
    const w = await openWorld();
    const paths = ['/work/p.json', '/work/p.txt', '/work/summary.md', '/work/outputs.txt'];
    for (const path of paths.slice(2)) w.fs.writeFileSync(path, '');
    const probe = atFirstStdout(w, paths);
    const comment = await run(w, ['comment', '--dry-run', '--out', 'p.json'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: paths[2], GITHUB_OUTPUT: paths[3] },
      onStdout: probe.onStdout,
    });
    expect(comment.code, comment.stderr).toBe(0);
    const files = probe.files() ?? [];
    expect(files.map((text) => (text ?? '').length > 0)).toEqual([true, true, true, true]);
    expect(files[2]).toContain(comment.stdout.trim().slice(0, 40));
  });

  it('apply --out with nothing to apply writes the empty report', async () => {
    const w = await openWorld({ config: 'version: 1\nignores:\n  unmanaged: report\n' });
    const apply = await run(w, [
      'apply',
      '--auto-approve',
      '--target',
      '1',
      '--format',
      'json',
      '--out',
      'rep.json',
    ]);
    expect(apply.code, apply.stderr).toBe(0);
    const report = expectFitsSchema('apply-report', String(w.fs.readFileSync('/work/rep.json', 'utf8')));
    expect(report).toMatchObject({ approval: 'auto-approve', calls: 0, outcomes: [] });
    expect(report.counts).toEqual({ done: 0, failed: 0, skipped: 0, blocked: 0 });
  });
});
