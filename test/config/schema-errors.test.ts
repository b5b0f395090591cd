import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/config/did-you-mean.js';
import { doc, errors, loadText } from './helpers.js';

describe('schema diagnostics', () => {
  it('reports every problem of a file, each at its line and column with its JSON path', async () => {
    const text = [
      'version: 1',
      'ignores:',
      '  unmanged: report',
      'updates:',
      '  - name: p',
      '    sites: [all]',
      '    max: minr',
      '    kinds: [plugin]',
      'holds:',
      '  - sites: [all]',
      '    pin: 9.40',
      '',
    ].join('\n');
    const result = await loadText(text);
    expect(result.desired).toBeUndefined();
    expect(errors(result.diagnostics).map((d) => [d.line, d.col, d.path, d.message, d.hint])).toEqual([
      [3, 3, '/ignores/unmanged', 'unknown key `unmanged` in `/ignores`', 'did you mean `unmanaged`?'],
      [
        7,
        10,
        '/updates/0/max',
        '`max` must be one of none, patch, minor, major; found "minr"',
        'did you mean `minor`?',
      ],
      [
        8,
        13,
        '/updates/0/kinds/0',
        'item 1 of `kinds` must be one of core, plugins, themes, translations; found "plugin"',
        'did you mean `plugins`?',
      ],
      [
        10,
        5,
        '/holds/0',
        'set exactly one of core, plugin, theme, translation',
        expect.stringContaining('exactly one of'),
      ],
      [
        11,
        10,
        '/holds/0/pin',
        '`pin` must be a string, found 9.4',
        "quote it: '9.40' (unquoted, YAML reads it as a number)",
      ],
    ]);
  });

  it('suggests the nearest top-level key and lists keys when nothing is near', async () => {
    const near = await loadText(doc('hold: []\n'));
    expect(near.diagnostics[0]).toMatchObject({
      line: 2,
      col: 1,
      message: 'unknown key `hold` at the top level',
      hint: 'did you mean `holds`?',
    });
    const far = await loadText(doc('zzzzzz: 1\n'));
    expect(far.diagnostics[0]!.hint).toMatch(/^allowed keys here: version, groups, sites/);
  });

  it('explains a missing required key with its description', async () => {
    const result = await loadText(doc('updates:\n  - {name: p, sites: [all]}\n'));
    expect(result.diagnostics[0]).toMatchObject({
      message: 'missing required key `max` in `/updates/0`',
      line: 3,
      col: 5,
    });
    expect(result.diagnostics[0]!.hint).toMatch(/^max: How far a version may move/);
  });

  it('advises on site items that look like URLs or have capitals', async () => {
    const result = await loadText(
      doc('sites: ["https://Acme-Shop.demo.test/", Globex.demo.test, "group:Acme"]\n'),
    );
    expect(result.diagnostics.map((d) => d.hint)).toEqual([
      'write the bare domain: acme-shop.demo.test',
      'domains are written in lower case: globex.demo.test',
      expect.stringContaining('group:<name>'),
    ]);
  });

  it('takes single-file plugin slugs (hello.php) and advises on a bare folder name', async () => {
    const ok = await loadText(
      doc('ignores:\n  rules:\n    - {sites: [all], plugins: [hello.php, akismet/akismet.php]}\n'),
    );
    expect(ok.diagnostics).toEqual([]);
    const bare = await loadText(doc('ignores:\n  rules:\n    - {sites: [all], plugins: [akismet]}\n'));
    expect(bare.diagnostics[0]!.hint).toBe(
      'plugin slugs are <folder>/<file>.php: did you mean `akismet/akismet.php`?',
    );
  });

  it('asks for at least one item in an ignore rule', async () => {
    const result = await loadText(doc('ignores:\n  rules:\n    - sites: [all]\n'));
    expect(result.diagnostics[0]!.message).toBe('set at least one of core, plugins, themes');
  });

  it('rejects a version other than 1 and a missing version', async () => {
    const two = await loadText('version: 2\n');
    expect(two.diagnostics[0]).toMatchObject({
      message: '`version` must be 1, found 2',
      path: '/version',
      line: 1,
      col: 10,
    });
    const none = await loadText('sites: [all]\n');
    expect(none.diagnostics[0]!.message).toBe('missing required key `version` at the top level');
  });

  it('reports an empty value as such', async () => {
    const result = await loadText(doc('sites:\n'));
    expect(result.diagnostics[0]!.message).toBe(
      '`sites` must be a mapping (key: value), found nothing (an empty value)',
    );
  });
});

describe('did you mean', () => {
  it('computes bounded edit distances', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('a', 'abcdefgh', 2)).toBe(3);
  });
  it('suggests only plausible typos, ties broken alphabetically', () => {
    expect(closest('plugns', ['plugins', 'themes', 'core'])).toBe('plugins');
    expect(closest('xyz', ['plugins', 'themes'])).toBeUndefined();
    expect(closest('cat', ['bat', 'car'])).toBe('bat');
  });
});
