import type * as nodeFs from 'node:fs';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { appendOutputs, configKey, formatOutput, hasMarker, marker } from '../../src/github/index.js';
import { linkWithRel } from '../../src/github/link-header.js';
import { renderDiagnosticsGithub } from '../../src/render/diagnostics.js';
import { escapeData, escapeProperty, formatAnnotation } from '../../src/render/workflow-command.js';

describe('workflow annotations', () => {
  it('escapes %, CR and LF in the message and also : and , in properties', () => {
    const line = formatAnnotation('error', '100% wrong\r\nsecond line', {
      file: 'fleets/a,b.yaml',
      line: 3,
      col: 5,
      title: 'schema: bad',
    });
    expect(line).toBe(
      '::error file=fleets/a%2Cb.yaml,line=3,col=5,title=schema%3A bad::100%25 wrong%0D%0Asecond line\n',
    );
    expect(escapeProperty('a:b,c%d\ne')).toBe('a%3Ab%2Cc%25d%0Ae');
  });

  it('a message cannot inject a second workflow command', () => {
    const line = formatAnnotation('warning', 'x\n::add-mask::secret');
    expect(line.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('escapes % first, so an escape sequence in the input stays literal', () => {
    expect(escapeData('%0A')).toBe('%250A');
    expect(escapeProperty('%3A')).toBe('%253A');
    expect(formatAnnotation('notice', 'm', { title: '', file: undefined })).toBe('::notice::m\n');
  });

  it('diagnostics become annotations through the same escaping (one implementation)', () => {
    const line = renderDiagnosticsGithub([
      {
        severity: 'error',
        rule: 'schema',
        message: 'unknown key "polices"',
        file: 'fleet,1.yaml',
        line: 4,
        col: 1,
        path: '/polices',
        hint: 'did you mean "policies"?',
      },
    ]);
    expect(line).toBe(
      formatAnnotation('error', 'unknown key "polices" (at /polices)\nhint: did you mean "policies"?', {
        file: 'fleet,1.yaml',
        line: 4,
        col: 1,
        title: 'svc-gitops schema',
      }),
    );
    expect(line).toContain('file=fleet%2C1.yaml,line=4,col=1,title=svc-gitops schema::');
  });
});

describe('step outputs', () => {
  it('writes every value as a heredoc with a delimiter not found in the value', () => {
    expect(formatOutput('plan-id', 'abc', 'EOF_1')).toBe('plan-id<<EOF_1\nabc\nEOF_1\n');
    expect(() => formatOutput('x', 'a\nEOF_1\nb', 'EOF_1')).toThrow(/delimiter/);
    expect(() => formatOutput('bad name', 'a')).toThrow(/name/);
  });

  it('keeps multiline values intact and cannot be forged by a value', () => {
    const fs = Volume.fromJSON({ '/out': '' }) as unknown as typeof nodeFs;
    appendOutputs(fs, '/out', {
      'has-changes': true,
      summary: 'line 1\nhas-changes=false\nline 3',
      update: 4,
    });
    const parsed = parseOutputs(String(fs.readFileSync('/out', 'utf8')));
    expect(parsed).toEqual({
      'has-changes': 'true',
      summary: 'line 1\nhas-changes=false\nline 3',
      update: '4',
    });
  });
});

describe('markers', () => {
  it('are one hidden line per kind and key, matched only at the start', () => {
    const m = marker('plan', 'fleets/prod -->.yaml');
    expect(m).toBe('<!-- svc-gitops:plan fleets%2Fprod%20--%3E.yaml -->');
    expect(hasMarker(`${m}\nbody`, m)).toBe(true);
    expect(hasMarker(`\n${m}\r\nbody`, m)).toBe(true);
    expect(hasMarker(`> ${m}\nbody`, m)).toBe(false);
    expect(hasMarker(`${m}x\nbody`, m)).toBe(false);
    expect(hasMarker(null, m)).toBe(false);
  });

  it('derive the same key for the same config however it is written', () => {
    expect(configKey('/home/runner/work/r/r/fleets/prod.yaml', '/home/runner/work/r/r')).toBe(
      'fleets/prod.yaml',
    );
    expect(configKey('./fleets//prod.yaml', '/x')).toBe('fleets/prod.yaml');
    expect(configKey('C:\\w\\r\\fleets\\prod.yaml', 'C:\\w\\r\\')).toBe('fleets/prod.yaml');
    expect(configKey('.', '/x')).toBe('.');
  });
});

/** The runner's parser for $GITHUB_OUTPUT (heredoc form only). */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!m) continue;
    const value: string[] = [];
    for (i += 1; lines[i] !== m[2]; i += 1) value.push(lines[i] ?? '');
    out[m[1] ?? ''] = value.join('\n');
  }
  return out;
}

describe('Link header', () => {
  it('finds rel="next" among several links, with commas inside URLs', () => {
    const header =
      '<https://api.github.com/x?a=1,2&page=3>; rel="next", <https://api.github.com/x?page=9>; rel="last", <https://api.github.com/x?page=1>; rel="first prev"';
    expect(linkWithRel(header, 'next')).toBe('https://api.github.com/x?a=1,2&page=3');
    expect(linkWithRel(header, 'prev')).toBe('https://api.github.com/x?page=1');
    expect(linkWithRel(header, 'nope')).toBeUndefined();
    expect(linkWithRel(undefined, 'next')).toBeUndefined();
    expect(linkWithRel('<u>; rel=next', 'next')).toBe('u');
  });
});

describe('module boundary', () => {
  it('src/github imports only types, errors, render and secrets through their index, its own files, node built-ins and undici', () => {
    const dir = join(import.meta.dirname, '../../src/github');
    for (const file of readdirSync(dir)) {
      const source = readFileSync(join(dir, file), 'utf8');
      for (const [, spec] of source.matchAll(/from '([^']+)'/g)) {
        expect(spec, `${file}: ${spec}`).toMatch(
          /^(\.\/[\w-]+\.js|\.\.\/(types|errors|render\/index|secrets\/index)\.js|node:[\w/]+|undici)$/,
        );
      }
    }
  });
});
