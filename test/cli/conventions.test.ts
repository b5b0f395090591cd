import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { demoFleet, fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/** --no-color beside NO_COLOR, and the safe-mode warning at plan time. */
const ROOT = join(import.meta.dirname, '..', '..');
const sandbox = sandboxPer('suite', () =>
  startSandbox({
    fleet: demoFleet(),
  }),
);
const dir = tempDirForFile('svc-gitops-conventions-');
/** Core patch updates everywhere: every such action is high risk. */
writeFileSync(
  join(dir, 'core.yaml'),
  'version: 1\nupdates:\n  - name: core\n    sites: [all]\n    kinds: [core]\n    max: patch\n',
);
const env = (extra: Record<string, string | undefined> = {}) => ({
  ...fastClientEnv(sandbox),
  SVC_ALLOW_HTTP: 'true',
  HOME: dir,
  ...extra,
});
const ANSI = /\u001b\[/;

describe('colour', () => {
  it('is used on a terminal, and --no-color turns it off as NO_COLOR does, before or after the command', async () => {
    const coloured = await cli(['plan', '-c', 'core.yaml'], {
      cwd: dir,
      env: env({ NO_COLOR: undefined }),
      tty: true,
    });
    expect(coloured.code, coloured.stderr).toBe(0);
    expect(coloured.stdout).toMatch(ANSI);
    for (const argv of [
      ['--no-color', 'plan', '-c', 'core.yaml'],
      ['plan', '-c', 'core.yaml', '--no-color'],
    ]) {
      const plain = await cli(argv, { cwd: dir, env: env({ NO_COLOR: undefined }), tty: true });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout, argv.join(' ')).not.toMatch(ANSI);
    }
    const noColor = await cli(['plan', '-c', 'core.yaml'], {
      cwd: dir,
      env: env({ NO_COLOR: '1' }),
      tty: true,
    });
    expect(noColor.stdout).not.toMatch(ANSI);
  });
});

describe('safe mode at plan time', () => {
  it('warns that apply will refuse a plan with high-risk actions, naming the setting', async () => {
    const plan = await cli(['plan', '-c', 'core.yaml'], { cwd: dir, env: env() });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toMatch(
      /svc-gitops: warning: safe mode is on: apply will refuse this plan \(SAFE_MODE_BLOCKED\), it holds \d+ high-risk actions/,
    );
    expect(plan.stderr).toContain('SVC_SAFE_MODE=false');
    // And apply does refuse it, as the warning said.
    const apply = await cli(['apply', '-c', 'core.yaml', '--auto-approve'], { cwd: dir, env: env() });
    expect(apply.stderr).toContain('SAFE_MODE_BLOCKED');
  });

  it('says nothing with safe mode off, or when the plan holds no high-risk action', async () => {
    const off = await cli(['plan', '-c', 'core.yaml'], { cwd: dir, env: env({ SVC_SAFE_MODE: 'false' }) });
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).not.toContain('safe mode');
    const minimal = await cli(['plan', '-c', join(ROOT, 'examples/minimal.yaml')], { cwd: dir, env: env() });
    expect(minimal.code, minimal.stderr).toBe(0);
    expect(minimal.stderr).not.toContain('safe mode');
  });
});
