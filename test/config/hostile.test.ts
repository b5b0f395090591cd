import { describe, expect, it, vi } from 'vitest';
import { Lexer } from 'yaml';
import { LIMITS } from '../../src/config/index.js';
import { CWD, doc, errors, loadFrom, loadText, rulesOf } from './helpers.js';

/** Every hostile input ends in an error diagnostic, no desired state, and no exception. */
async function rejects(text: string | Buffer, rule: string) {
  const result = await loadFrom({ 'svc-gitops.yaml': text });
  expect(result.desired).toBeUndefined();
  expect(rulesOf(errors(result.diagnostics))).toContain(rule);
  return result.diagnostics.find((d) => d.rule === rule)!;
}

describe('hostile and broken input', () => {
  it('reports a YAML syntax error with its position', async () => {
    const d = await rejects(doc('sites: [all\nignores: {}\n'), 'yaml-syntax');
    expect(d.file).toBe('svc-gitops.yaml');
    expect(d.line).toBeGreaterThanOrEqual(2);
  });

  it('reports duplicate keys at the second key', async () => {
    const d = await rejects(doc('sites: [all]\nsites: [1]\n'), 'duplicate-key');
    expect([d.line, d.col]).toEqual([3, 1]);
  });

  it('reports tab indentation', async () => {
    const d = await rejects(doc('ignores:\n\tunmanaged: keep\n'), 'yaml-tab');
    expect(d.line).toBe(3);
    expect(d.hint).toMatch(/spaces/);
  });

  it('bounds alias expansion (billion laughs)', async () => {
    const lines = ['version: 1', 'x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 12; i++) {
      lines.push(`x${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
    }
    const d = await rejects(`${lines.join('\n')}\n`, 'alias-limit');
    expect(d.message).toContain(String(LIMITS.maxAliasCount));
  });

  it('accepts a few aliases within the limit', async () => {
    const result = await loadText(
      doc('sites: &fleet [acme-shop.demo.test]\nrollout:\n  waves:\n    - {name: one, sites: *fleet}\n'),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.waves[0]?.selection.include).toEqual([
      { type: 'domain', domain: 'acme-shop.demo.test' },
    ]);
  });

  it('reports an unresolved alias', async () => {
    const d = await rejects(doc('sites: *nowhere\n'), 'yaml-alias');
    expect(d.hint).toMatch(/anchor/);
  });

  it('reports non-string keys', async () => {
    const d = await rejects(doc('groups:\n  2024: [all]\n'), 'non-string-key');
    expect([d.line, d.col]).toEqual([3, 3]);
    await rejects(doc('? [a, b]\n: 1\n'), 'non-string-key');
    await rejects(doc('groups:\n  ? {a: 1}\n  : [all]\n'), 'non-string-key');
  });

  // More items than a call can take as arguments (push(...list) throws beyond about 120,000).
  it('handles a group too long to pass as call arguments', async () => {
    const ids = Array.from({ length: 130_000 }, (_, i) => i + 1).join(', ');
    const group = await loadText(doc(`groups:\n  big: [${ids}]\nsites: [group:big]\n`));
    expect(group.diagnostics).toEqual([]);
    expect(group.desired?.sites.include).toHaveLength(130_000);
  });

  it('handles a list of bad items too long to pass as call arguments', async () => {
    const bad = await loadText(doc(`sites: [${Array(130_000).fill('A').join(', ')}]\n`));
    expect(bad.diagnostics.length).toBeGreaterThanOrEqual(130_000);
  });

  it('rejects a file above the documented size limit before reading it', async () => {
    const big = `version: 1\n#${'x'.repeat(LIMITS.maxFileBytes)}\n`;
    const d = await rejects(big, 'file-too-large');
    expect(d.message).toContain('4 MiB');
  });

  it('rejects binary data and invalid UTF-8', async () => {
    await rejects(Buffer.from([0x76, 0x65, 0x00, 0x01, 0xff]), 'binary-file');
    await rejects(Buffer.from([0x76, 0x3a, 0x20, 0xc3, 0x28]), 'binary-file');
  });

  it('accepts a UTF-8 byte-order mark', async () => {
    const result = await loadText('\uFEFFversion: 1\n');
    expect(result.diagnostics).toEqual([]);
  });

  it('rejects an empty file and a file of comments', async () => {
    await rejects('', 'empty-file');
    await rejects('# only a comment\n', 'empty-file');
  });

  it('rejects a directory with no YAML and a missing path', async () => {
    const dir = await loadFrom({ 'conf/README.md': 'hi' }, 'conf');
    expect(rulesOf(dir.diagnostics)).toEqual(['no-yaml-files']);
    // About the directory, so no line:col (there is no line 1 of a directory).
    expect(dir.diagnostics[0]).toMatchObject({
      message: 'conf is a directory with no *.yaml or *.yml files in it',
    });
    expect(dir.diagnostics[0]!.line).toBeUndefined();
    const missing = await loadFrom({}, 'nope.yaml');
    expect(rulesOf(missing.diagnostics)).toEqual(['config-not-found']);
    expect(missing.diagnostics[0]!.message).toContain('does not exist');
  });

  it('rejects pathological nesting without exhausting memory', async () => {
    await rejects(`version: 1\nx: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`, 'too-deep');
    await rejects(`version: 1\nx:\n  ${'- '.repeat(100_000)}y\n`, 'too-deep');
    await rejects(`version: 1\nx: ${'['.repeat(70)}${']'.repeat(70)}\n`, 'too-deep');
    // Closing brackets hidden in quoted strings do not hide the nesting.
    await rejects(`version: 1\nx: ${'[ "]", '.repeat(100)}\n`, 'too-deep');
    // Shallow enough to parse safely, still deeper than any desired state: caught after parsing.
    const d = await rejects(`version: 1\nx:\n  ${'- '.repeat(80)}y\n`, 'too-deep');
    expect(d.message).toBe(`collections nest more than ${LIMITS.maxDepth} levels deep`);
  });

  it('rejects several documents in one file', async () => {
    await rejects('version: 1\n---\nversion: 1\n', 'yaml-multiple-documents');
  });

  it('rejects a document that is not a mapping', async () => {
    for (const text of ['- version: 1\n', 'just text\n', '42\n']) {
      const d = await rejects(text, 'schema');
      expect(d.message).toMatch(/must be a mapping/);
    }
  });

  it('reports every broken file of a directory, not just the first', async () => {
    const result = await loadFrom(
      {
        'd/a.yaml': 'version: 1\nsites: [all\n',
        'd/b.yaml': '',
        'd/c.yml': Buffer.from([0, 1, 2]),
        'd/ok.yaml': 'version: 1\n',
      },
      'd',
    );
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.file, d.rule])).toEqual([
      ['d/a.yaml', 'yaml-syntax'],
      ['d/b.yaml', 'empty-file'],
      ['d/c.yml', 'binary-file'],
    ]);
  });

  it('names files relative to the working directory, or absolute outside it', async () => {
    const inside = await loadFrom({ 'x.yaml': '' }, `${CWD}/x.yaml`);
    expect(inside.diagnostics[0]!.file).toBe('x.yaml');
    const outside = await loadFrom({}, '/elsewhere/x.yaml');
    expect(outside.diagnostics[0]!.file).toBe('/elsewhere/x.yaml');
  });
});

/** A valid file whose holds carry the given YAML as `reason` (each entry is the text after `reason:`). */
function holdsWithReasons(reasons: string[]): string {
  const holds = reasons.map((r) => `  - sites: [all]\n    core: true\n    reason: ${r}\n`).join('');
  return doc(`holds:\n${holds}`);
}

describe('nesting limits look at structure, not at text inside strings', () => {
  const dashes = '- '.repeat(200).trimEnd();
  const rule = '-'.repeat(300);

  it('accepts runs of `-`, markdown rules and deep indentation inside block scalars, quoted and plain strings, and comments', async () => {
    const text = holdsWithReasons([
      `|\n      ${dashes}\n      ${rule}\n      ${' '.repeat(300)}indented text`,
      `>\n      ${dashes}\n\n      ${rule}`,
      `"see\n      ${rule}"`,
      `see\n      ${rule}`,
    ]).concat(`${' '.repeat(300)}# a comment far to the right\n${' '.repeat(300)}\n`);
    const result = await loadText(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.holds.map((h) => h.reason)).toEqual([
      `${dashes}\n${rule}\n${' '.repeat(300)}indented text\n`,
      `${dashes}\n${rule}\n`,
      `see ${rule}`,
      `see ${rule}`,
    ]);
  });

  it('still refuses block nesting hidden behind anchors or tags, before parsing costs explode', async () => {
    // The work is bounded by counting the tokens the parser pulls from yaml's lexer: the input
    // is about 400,000 tokens, the refusal must come after the few hundred that reach the limit.
    const lex = Lexer.prototype.lex;
    let lexed = 0;
    const spy = vi.spyOn(Lexer.prototype, 'lex').mockImplementation(function* (this: Lexer, ...args) {
      for (const token of lex.apply(this, args)) {
        lexed++;
        yield token;
      }
    });
    try {
      for (const unit of ['- &a ', '? &a ', '- !t ']) {
        lexed = 0;
        const d = await rejects(`version: 1\nx:\n  ${unit.repeat(100_000)}y\n`, 'too-deep');
        // Indentation counts spaces and indicators, not the anchor or tag: 2 + 3 per unit, so the
        // 86th unit's indicator (2 + 3 * 85 + 1 = 258) is the first past column 256.
        expect([d.line, d.col], unit).toEqual([3, 2 + unit.length * 85 + 1]);
        expect(lexed, unit).toBeGreaterThan(0);
        expect(lexed, unit).toBeLessThan(1_000);
      }
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('limits are reported where they are exceeded', () => {
  it('flow nesting: at the bracket that opens one level too many', async () => {
    const d = await rejects(`version: 1\nsites: [all]\nx: ${'['.repeat(70)}${']'.repeat(70)}\n`, 'too-deep');
    // `x: ` is 3 columns, then the 65th `[`.
    expect([d.file, d.line, d.col]).toEqual(['svc-gitops.yaml', 3, 3 + LIMITS.maxDepth + 1]);
  });

  it('block nesting: at the indicator that reaches one column too far', async () => {
    const d = await rejects(`version: 1\nx:\n  ${'- '.repeat(100_000)}y\n`, 'too-deep');
    // Two spaces, then `- ` pairs: the 128th `-` is column 2 + 2 * 127 + 1 = 257 = 64 * 4 + 1.
    expect([d.line, d.col]).toEqual([3, LIMITS.maxDepth * 4 + 1]);
    const spaces = await rejects(`version: 1\nx:\n${' '.repeat(300)}y: 1\n`, 'too-deep');
    expect([spaces.line, spaces.col]).toEqual([3, 301]);
  });

  it('nesting found after parsing: at the first too-deep collection in the file', async () => {
    const deep = `  ${'- '.repeat(80)}y\n`;
    const d = await rejects(`version: 1\na:\n${deep}b:\n${deep}`, 'too-deep');
    // The root mapping is level 1, `a`'s list level 2: the 64th `- ` opens level 65.
    expect([d.line, d.col]).toEqual([3, 3 + 2 * 63]);
  });

  it('alias limit: at the alias that exceeds it', async () => {
    const aliases = Array.from({ length: 150 }, () => '  - *one\n').join('');
    const d = await rejects(`version: 1\nx: &one [y]\nsites:\n${aliases}`, 'alias-limit');
    // The anchor counts as one use, so the 100th alias (line 3 + 100) is use 101.
    expect([d.line, d.col]).toEqual([103, 5]);
  });

  it('an unresolved alias: at the alias', async () => {
    const d = await rejects(doc('sites:\n  - all\n  - *nowhere\n'), 'yaml-alias');
    expect([d.line, d.col]).toEqual([4, 5]);
  });
});

describe('YAML tags', () => {
  const cases: Array<[string, string, [number, number]]> = [
    ['!!binary', holdsWithReasons(['!!binary aGVsbG8=']), [5, 13]],
    ['!!timestamp', holdsWithReasons(['!!timestamp 2026-01-01']), [5, 13]],
    ['!!set', doc('groups: !!set\n  ? a\n'), [2, 9]],
    ['!!omap', doc('groups: !!omap\n  - a: [all]\n'), [2, 9]],
    ['!foo', doc('sites: !foo [all]\n'), [2, 8]],
  ];

  for (const [tag, text, [line, col]] of cases) {
    it(`refuses ${tag} at the tag, with no schema message about the converted value`, async () => {
      const result = await loadText(text);
      expect(result.desired).toBeUndefined();
      expect(result.diagnostics).toEqual([
        expect.objectContaining({
          severity: 'error',
          rule: 'yaml-tag',
          message: `YAML tags are not supported in desired-state files: found \`${tag}\``,
          file: 'svc-gitops.yaml',
          line,
          col,
        }),
      ]);
    });
  }

  it("accepts the core schema's own tags: !!str keeps a version as text", async () => {
    const result = await loadText(doc('sites: [!!str all]\n'));
    expect(result.diagnostics).toEqual([]);
    expect(result.desired).toBeDefined();
  });

  it('keeps plain values that look like timestamps, and tag-like text inside strings', async () => {
    const result = await loadText(
      holdsWithReasons(['2026-01-01', "'!!binary aGVsbG8='", '|\n      !foo bar\n      !!set']),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.holds.map((h) => h.reason)).toEqual([
      '2026-01-01',
      '!!binary aGVsbG8=',
      '!foo bar\n!!set\n',
    ]);
  });
});
