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
    expect(result.diagnostics[0]!.message).toBe('set at least one of core, plugins, themes, site_flags');
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
      '`sites` must be a list or a mapping (key: value), found nothing (an empty value)',
    );
    // The selection's own description, not the whole format's (the root's).
    expect(result.diagnostics[0]!.hint).toMatch(/^Sites: a list of site items/);
  });

  it('a list of mappings written as one mapping (the `- ` forgotten) is told how an entry starts', async () => {
    const text = [
      'version: 1',
      'updates:',
      '  name: p',
      '  sites: [all]',
      'ignores:',
      '  rules:',
      '    sites: [all]',
      '    core: true',
      '',
    ].join('\n');
    const result = await loadText(text);
    expect(errors(result.diagnostics).map((d) => [d.line, d.path, d.message, d.hint])).toEqual([
      [
        3,
        '/updates',
        '`updates` must be a list, found a mapping',
        'start each entry with `- `: `- name: …` (a list of mappings, not one mapping)',
      ],
      [
        7,
        '/ignores/rules',
        '`rules` must be a list, found a mapping',
        'start each entry with `- `: `- sites: …` (a list of mappings, not one mapping)',
      ],
    ]);
  });

  it('a quoted version is told to drop the quotes', async () => {
    const result = await loadText('version: "1"\n');
    expect(result.diagnostics[0]).toMatchObject({
      message: '`version` must be 1, found "1"',
      hint: 'write it without quotes: 1',
    });
  });

  it('a site selection written as one value (`sites: all`) is told to be a list, wherever it is', async () => {
    const text = [
      'version: 1',
      'sites: all',
      'ignores:',
      '  rules:',
      '    - sites: 4',
      '      core: true',
      'updates:',
      '  - name: p',
      '    sites: group:clients',
      '    kinds: [plugins]',
      '    max: patch',
      '',
    ].join('\n');
    const result = await loadText(text);
    expect(errors(result.diagnostics).map((d) => [d.line, d.path, d.message, d.hint])).toEqual([
      [
        2,
        '/sites',
        '`sites` must be a list or a mapping (key: value), found "all"',
        'write it as a list: [all]',
      ],
      [
        5,
        '/ignores/rules/0/sites',
        '`sites` must be a list or a mapping (key: value), found 4',
        'write it as a list: [4]',
      ],
      [
        9,
        '/updates/0/sites',
        '`sites` must be a list or a mapping (key: value), found "group:clients"',
        'write it as a list: [group:clients]',
      ],
    ]);
  });
});

describe('did you mean', () => {
  it('computes bounded edit distances', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('a', 'abcdefgh', 2)).toBe(3);
    // Two neighbouring letters swapped are one typo.
    expect(editDistance('minro', 'minor')).toBe(1);
    expect(editDistance('ab', 'ba', 1)).toBe(1);
  });
  it('suggests the word for a swapped-letters typo (`max: minro`)', async () => {
    const result = await loadText(
      doc('updates:\n  - name: p\n    sites: [all]\n    kinds: [plugins]\n    max: minro\n'),
    );
    expect(result.diagnostics[0]!.hint).toBe('did you mean `minor`?');
    expect(closest('kidns', ['kinds', 'sites'])).toBe('kinds');
  });
  it('suggests only plausible typos, ties broken alphabetically', () => {
    expect(closest('plugns', ['plugins', 'themes', 'core'])).toBe('plugins');
    expect(closest('xyz', ['plugins', 'themes'])).toBeUndefined();
    expect(closest('cat', ['bat', 'car'])).toBe('bat');
  });
});
