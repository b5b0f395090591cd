import { describe, expect, it } from 'vitest';
import { errors, loadFrom } from './helpers.js';

const dir = (files: Record<string, string>) =>
  loadFrom(Object.fromEntries(Object.entries(files).map(([name, text]) => [`conf/${name}`, text])), 'conf');

describe('merging a directory', () => {
  it('concatenates lists in file-name order and reads .yml too', async () => {
    const result = await dir({
      'b.yml': 'version: 1\nupdates:\n  - {name: second, sites: [all], max: patch}\n',
      'a.yaml': 'version: 1\nupdates:\n  - {name: first, sites: [all], max: minor}\n',
      '.hidden.yaml': 'not: read\n',
      'notes.txt': 'ignored',
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.desired!.policies.map((p) => [p.name, p.source.file])).toEqual([
      ['first', 'conf/a.yaml'],
      ['second', 'conf/b.yml'],
    ]);
  });

  it('reports diagnostics in the order files merge (code units: B.yaml before a.yaml), whatever the locale', async () => {
    const broken = 'version: 1\nupdates:\n  - {name: x, sites: [all], max: huge}\n';
    const result = await dir({ 'a.yaml': broken, 'B.yaml': broken });
    expect([...new Set(result.diagnostics.map((d) => d.file))]).toEqual(['conf/B.yaml', 'conf/a.yaml']);
  });

  it('resolves group references across files', async () => {
    const result = await dir({
      'groups.yaml': 'version: 1\ngroups:\n  acme: [acme-*.demo.test]\n',
      'rules.yaml': 'version: 1\nignores:\n  rules:\n    - {sites: [group:acme], themes: [astra]}\n',
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.desired!.ignores[0]!.selection.include).toEqual([
      { type: 'glob', pattern: 'acme-*.demo.test' },
    ]);
  });

  it('accepts the same group defined identically twice', async () => {
    const group = 'version: 1\ngroups:\n  acme: [1, 2]\nsites: [group:acme]\n';
    expect((await dir({ 'a.yaml': group, 'b.yaml': group })).diagnostics).toEqual([]);
  });

  const contradictions: Array<[string, string, string, string]> = [
    ['a group', 'groups:\n  acme: [1]\nsites: [group:acme]\n', 'groups:\n  acme: [2]\n', 'group `acme`'],
    ['sites', 'sites: [all]\n', 'sites: [1]\n', '`sites`'],
    ['unmanaged', 'ignores:\n  unmanaged: keep\n', 'ignores:\n  unmanaged: remove\n', '`ignores.unmanaged`'],
    [
      'the waves',
      'rollout:\n  waves: [{name: a, sites: [1]}]\n',
      'rollout:\n  waves: [{name: b, sites: [1]}]\n',
      '`rollout.waves`',
    ],
    ['max_sites', 'approval: {max_sites: 5}\n', 'approval: {max_sites: 6}\n', '`approval.max_sites`'],
    ['approval.core', 'approval: {core: true}\n', 'approval: {core: false}\n', '`approval.core`'],
    ['approval.major', 'approval: {major: true}\n', 'approval: {major: false}\n', '`approval.major`'],
  ];
  for (const [what, first, second, named] of contradictions) {
    it(`reports ${what} set differently in two files, naming both places`, async () => {
      const result = await dir({ 'a.yaml': `version: 1\n${first}`, 'b.yaml': `version: 1\n${second}` });
      expect(result.desired).toBeUndefined();
      const found = errors(result.diagnostics).filter((d) => d.rule === 'contradiction');
      expect(found).toHaveLength(1);
      const d = found[0]!;
      expect(d.file).toBe('conf/b.yaml');
      expect(d.message).toContain(named);
      expect(d.message).toMatch(/at conf\/a\.yaml:\d+:\d+/);
      expect(d.related?.[0]).toMatchObject({ file: 'conf/a.yaml' });
    });
  }

  it('reports a policy name used in two files at the second, naming the first', async () => {
    const policy = 'version: 1\nupdates:\n  - {name: routine, sites: [all], max: patch}\n';
    const result = await dir({ 'a.yaml': policy, 'b.yaml': policy });
    const d = errors(result.diagnostics)[0]!;
    expect(d).toMatchObject({ rule: 'duplicate-name', file: 'conf/b.yaml', line: 3 });
    expect(d.message).toContain('conf/a.yaml:3:5');
  });

  it('requires a version in every file', async () => {
    const result = await dir({ 'a.yaml': 'version: 1\n', 'b.yaml': 'sites: [all]\n' });
    expect(errors(result.diagnostics)).toMatchObject([
      { file: 'conf/b.yaml', rule: 'schema', message: 'missing required key `version` at the top level' },
    ]);
  });

  it('gives a digest that depends on content, not on reading order', async () => {
    const a = 'version: 1\nsites: [all]\n';
    const b = 'version: 1\nholds:\n  - {sites: [all], core: true}\n';
    const first = await dir({ 'a.yaml': a, 'b.yaml': b });
    const again = await dir({ 'b.yaml': b, 'a.yaml': a });
    const changed = await dir({ 'a.yaml': a, 'b.yaml': `${b}# comment\n` });
    expect(first.desired!.digest).toBe(again.desired!.digest);
    expect(first.desired!.digest).not.toBe(changed.desired!.digest);
    expect(first.desired!.files).toHaveLength(2);
  });
});
