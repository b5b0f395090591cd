import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { CWD, memoryFs } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BROKEN = 'version: 1\nignores:\n  unmanged: report\nsites: [group:nope]\n';

describe('svc-gitops validate', () => {
  it('exits 0 for the examples and prints a summary', async () => {
    const run = await cli(['validate', '-c', 'examples/agency.yaml'], { cwd: ROOT });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'examples/agency.yaml: valid (1 file, 4 ignore rules, 4 update policies, 3 holds, 4 waves, unmanaged ignores: report)\n',
    );
    const multi = await cli(['validate', '-c', 'examples/multi-file'], { cwd: ROOT });
    expect(multi.code).toBe(0);
    expect(multi.stdout).toContain('examples/multi-file: valid (3 files,');
  });

  it('exits 1 and prints file:line:col, the JSON path, the message and a hint', async () => {
    const run = await cli(['validate'], { cwd: CWD, fs: memoryFs({ 'svc-gitops.yaml': BROKEN }) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        'svc-gitops.yaml:3:3: error [schema] unknown key `unmanged` in `/ignores` (at /ignores/unmanged)',
        '  hint: did you mean `unmanaged`?',
        'svc-gitops.yaml: invalid (1 error)',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toBe('');
  });

  it('prints GitHub workflow annotations with --format github', async () => {
    const run = await cli(['validate', '--format', 'github'], {
      cwd: CWD,
      fs: memoryFs({ 'svc-gitops.yaml': BROKEN }),
    });
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe(
      '::error file=svc-gitops.yaml,line=3,col=3,title=svc-gitops schema::unknown key `unmanged` in `/ignores` (at /ignores/unmanged)%0Ahint: did you mean `unmanaged`?',
    );
  });

  it('prints machine-readable diagnostics with --format json', async () => {
    const run = await cli(['validate', '--format', 'json'], {
      cwd: CWD,
      fs: memoryFs({ 'svc-gitops.yaml': BROKEN }),
    });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ valid: false, errors: 1, warnings: 0, path: 'svc-gitops.yaml' });
    expect(report.diagnostics[0]).toMatchObject({
      rule: 'schema',
      line: 3,
      col: 3,
      path: '/ignores/unmanged',
    });
    const ok = JSON.parse(
      (await cli(['validate', '-c', 'examples/minimal.yaml', '--format', 'json'], { cwd: ROOT })).stdout,
    );
    expect(ok).toMatchObject({ valid: true, errors: 0, diagnostics: [] });
    expect(ok.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports a missing desired state in the machine formats too', async () => {
    const json = await cli(['validate', '--format', 'json'], { cwd: CWD, fs: memoryFs({}) });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: false,
      errors: 1,
      diagnostics: [{ rule: 'config-invalid', message: expect.stringContaining('no svc-gitops.yaml') }],
    });
    const github = await cli(['validate', '--format', 'github'], { cwd: CWD, fs: memoryFs({}) });
    expect(github.code).toBe(1);
    expect(github.stdout).toMatch(/^::error /);
  });

  it('reports semantic problems once the structure is right', async () => {
    const text = 'version: 1\ngroups:\n  acme: [acme-*.demo.test]\nsites: [group:acmee]\n';
    const run = await cli(['validate'], { cwd: CWD, fs: memoryFs({ 'svc-gitops.yaml': text }) });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'svc-gitops.yaml:4:9: error [unknown-group] group `acmee` is not defined (at /sites/0)\n  hint: did you mean `acme`?',
    );
  });

  it('warnings alone keep exit 0', async () => {
    const text = 'version: 1\ngroups:\n  spare: [1]\n';
    const run = await cli(['validate'], { cwd: CWD, fs: memoryFs({ 'svc-gitops.yaml': text }) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('warning [unused-group]');
    expect(run.stdout).toContain(
      'valid (1 file, 0 ignore rules, 0 update policies, 0 holds, 0 waves, unmanaged ignores: report; 1 warning)',
    );
  });

  it('reads the directory svc-gitops/ when there is no svc-gitops.yaml', async () => {
    const run = await cli(['validate'], { cwd: CWD, fs: memoryFs({ 'svc-gitops/a.yaml': 'version: 1\n' }) });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^svc-gitops: valid/);
  });

  it('refuses to guess when both svc-gitops.yaml and svc-gitops/ exist, or neither', async () => {
    const both = await cli(['validate'], {
      cwd: CWD,
      fs: memoryFs({ 'svc-gitops.yaml': 'version: 1\n', 'svc-gitops/a.yaml': 'version: 1\n' }),
    });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('svc-gitops: error [USAGE]: both svc-gitops.yaml and svc-gitops/ exist');
    const neither = await cli(['validate'], { cwd: CWD, fs: memoryFs({}) });
    expect(neither.code).toBe(1);
    expect(neither.stderr).toMatch(
      /error \[CONFIG_INVALID\]: no svc-gitops.yaml or svc-gitops\/ in \/repo\n {2}hint: /,
    );
  });

  it('reports hostile input with exit 1 and no stack trace', async () => {
    const bomb = ['version: 1', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++)
      bomb.push(
        `a${i}: &a${i} [${Array(10)
          .fill(i === 1 ? '*a' : `*a${i - 1}`)
          .join(', ')}]`,
      );
    const files = {
      'bomb.yaml': `${bomb.join('\n')}\n`,
      'bin.yaml': Buffer.from([0xff, 0xfe, 0x00]),
      'empty.yaml': '',
      'deep.yaml': `x: ${'['.repeat(50_000)}`,
    };
    for (const name of Object.keys(files)) {
      const run = await cli(['validate', '-c', name], { cwd: CWD, fs: memoryFs(files) });
      expect(run.code, name).toBe(1);
      expect(run.stdout, name).toMatch(/error \[/);
      expect(run.stdout + run.stderr, name).not.toMatch(/\n\s+at /);
    }
  });

  it('caps the diagnostics printed for a huge broken file; the verdict and exit code count them all', async () => {
    const fs = memoryFs({ 'svc-gitops.yaml': `version: 1\nsites: [${Array(3000).fill('A').join(', ')}]\n` });
    const text = await cli(['validate'], { cwd: CWD, fs });
    expect(text.code).toBe(1);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('svc-gitops.yaml:2:'))).toHaveLength(50);
    expect(lines.slice(-2)).toEqual([
      '... 2950 more diagnostics not shown (2950 errors)',
      'svc-gitops.yaml: invalid (3000 errors)',
    ]);
    const github = await cli(['validate', '--format', 'github'], { cwd: CWD, fs });
    expect(github.code).toBe(1);
    expect(github.stdout.match(/^::error /gm)).toHaveLength(50);
    expect(github.stdout).toMatch(
      /\n\.\.\. 2950 more diagnostics not shown \(2950 errors\)\nsvc-gitops: svc-gitops.yaml: invalid \(3000 errors\)\n$/,
    );
    const json = await cli(['validate', '--format', 'json'], { cwd: CWD, fs });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: false, errors: 3000, omitted: 2000 });
  });

  it('rejects an unknown format', async () => {
    const run = await cli(['validate', '--format', 'xml'], { cwd: ROOT });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Allowed choices are text, github, json/);
  });
});
