import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDesiredState } from '../../src/config/index.js';
import { readBaseConfig } from '../../src/git/index.js';
import { svcError } from '../helpers/errors.js';
import { gitRepo } from '../helpers/git-repo.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

const RULE = (slug: string) =>
  `version: 1\nignores:\n  rules:\n    - sites: [all]\n      plugins: [${slug}]\n`;

describe('readBaseConfig (real git, temporary repositories)', () => {
  it('reads a config directory at the merge base, its files only, under the head’s names', async () => {
    const repo = gitRepo(tempDirForFile('svc-gitops-git-'));
    repo.commit({
      'fleet/00-base.yaml': RULE('a/a.php'),
      'fleet/10-more.yaml': 'version: 1\n',
      'fleet/nested/ignored.yaml': RULE('nested/n.php'),
      'other.yaml': RULE('other/o.php'),
    });
    const base = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit({ 'fleet/20-new.yaml': RULE('b/b.php'), 'fleet/10-more.yaml': null });
    // main moves on after the branch point: the merge base, not main's tip, is read.
    repo.git('checkout', '-q', 'main');
    repo.commit({ 'fleet/30-later.yaml': RULE('later/l.php') });
    repo.git('checkout', '-q', 'feature');

    const read = await readBaseConfig({ cwd: repo.dir, configPath: 'fleet', ref: 'main' });
    try {
      expect(read).toMatchObject({ commit: base, exists: true, configPath: 'fleet', ref: 'main' });
      expect(readdirSync(join(read.cwd, 'fleet')).sort()).toEqual(['00-base.yaml', '10-more.yaml']);
      const loaded = await loadDesiredState({
        path: read.configPath,
        fs: await import('node:fs'),
        cwd: read.cwd,
      });
      expect(
        loaded.desired?.ignores.map((rule) => [rule.plugins, rule.source.file, rule.source.line]),
      ).toEqual([[['a/a.php'], 'fleet/00-base.yaml', 4]]);
    } finally {
      read.dispose();
    }
    expect(() => readdirSync(read.cwd)).toThrow();
  });

  it('reads a file from a subdirectory cwd; a path the base lacks is absent, not an error', async () => {
    const repo = gitRepo(tempDirForFile('svc-gitops-git-'));
    repo.commit({ 'ops/svc-gitops.yaml': RULE('a/a.php') });
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit({ 'ops/svc-gitops.yaml': RULE('b/b.php'), 'ops/new.yaml': 'version: 1\n' });
    const cwd = join(repo.dir, 'ops');
    const read = await readBaseConfig({ cwd, configPath: 'svc-gitops.yaml', ref: 'main' });
    expect(readFileSync(join(read.cwd, read.configPath), 'utf8')).toBe(RULE('a/a.php'));
    read.dispose();
    const added = await readBaseConfig({ cwd, configPath: join(cwd, 'new.yaml'), ref: 'main' });
    expect(added).toMatchObject({ exists: false, configPath: 'new.yaml' });
    added.dispose();
  });

  it('says how to fix an unknown ref or a shallow clone without the base; refuses option-like refs', async () => {
    const repo = gitRepo(tempDirForFile('svc-gitops-git-'));
    repo.commit({ 'svc-gitops.yaml': RULE('a/a.php') });
    const base = repo.git('rev-parse', 'HEAD');
    repo.commit({ 'svc-gitops.yaml': RULE('b/b.php') });
    const unknown = await svcError(
      readBaseConfig({ cwd: repo.dir, configPath: 'svc-gitops.yaml', ref: 'nope' }),
    );
    expect(unknown.code).toBe('IO_ERROR');
    expect(unknown.hint).toContain('fetch-depth: 0');
    // A clone of depth 1 has the head only, as actions/checkout makes by default.
    const shallow = tempDirForFile('svc-gitops-shallow-');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, shallow]);
    const missing = await svcError(
      readBaseConfig({ cwd: shallow, configPath: 'svc-gitops.yaml', ref: base }),
    );
    expect(missing.message).toContain(`merge base of ${base}`);
    const option = await svcError(
      readBaseConfig({ cwd: repo.dir, configPath: 'svc-gitops.yaml', ref: '--output=/tmp/x' }),
    );
    expect(option.code).toBe('USAGE');
  });
});
