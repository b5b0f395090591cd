import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/errors.js';
import {
  escapeData,
  escapeProperty,
  MAX_JSON_DIAGNOSTICS,
  MAX_PRINTED_DIAGNOSTICS,
  renderDiagnosticsGithub,
  renderDiagnosticsJson,
  renderDiagnosticsText,
} from '../../src/render/diagnostics.js';

const late: Diagnostic = {
  severity: 'warning',
  rule: 'unused-group',
  message: 'group `x` is unused',
  file: 'a.yaml',
  line: 9,
  col: 3,
};
const early: Diagnostic = {
  severity: 'error',
  rule: 'contradiction',
  message: 'group `acme` is set differently',
  file: 'a.yaml',
  line: 2,
  col: 5,
  path: '/groups/acme',
  hint: 'keep one definition',
  related: [{ file: 'b.yaml', line: 4, col: 3, message: 'first definition' }],
};
const fileLevel: Diagnostic = {
  severity: 'error',
  rule: 'config-not-found',
  message: 'nope.yaml does not exist',
  file: 'nope.yaml',
};

describe('diagnostic rendering', () => {
  it('text: sorted by place, with hint and related lines', () => {
    expect(renderDiagnosticsText([late, fileLevel, early])).toBe(
      [
        'a.yaml:2:5: error [contradiction] group `acme` is set differently (at /groups/acme)',
        '  hint: keep one definition',
        '  see: b.yaml:4:3 first definition',
        'a.yaml:9:3: warning [unused-group] group `x` is unused',
        'nope.yaml: error [config-not-found] nope.yaml does not exist',
        '',
      ].join('\n'),
    );
    expect(renderDiagnosticsText([])).toBe('');
  });

  it('text: neutralises control characters from the YAML', () => {
    const hostile: Diagnostic = { ...late, message: 'unknown key `\u001b[2J\u202e`' };
    const text = renderDiagnosticsText([hostile]);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202e');
  });

  it('text: colours only when asked', () => {
    expect(renderDiagnosticsText([early], { colour: true })).toContain('\u001b[31merror\u001b[39m');
  });

  it('github: one workflow command per diagnostic, escaped', () => {
    const tricky: Diagnostic = { ...early, file: 'dir,x/a:b.yaml', message: '100% wrong\nsecond line' };
    expect(renderDiagnosticsGithub([tricky, late])).toBe(
      '::warning file=a.yaml,line=9,col=3,title=svc-gitops unused-group::group `x` is unused\n' +
        '::error file=dir%2Cx/a%3Ab.yaml,line=2,col=5,title=svc-gitops contradiction::100%25 wrong%0Asecond line (at /groups/acme)%0Ahint: keep one definition%0Asee: b.yaml:4:3 first definition\n',
    );
    expect(escapeData('a\r\nb%')).toBe('a%0D%0Ab%25');
    expect(escapeProperty('a:b,c')).toBe('a%3Ab%2Cc');
  });

  it('github: a workflow command cannot be forged through a message', () => {
    const forged: Diagnostic = { ...late, message: 'x\n::error file=evil::owned' };
    const out = renderDiagnosticsGithub([forged]);
    expect(out.split('\n').filter((l) => l.startsWith('::'))).toHaveLength(1);
  });

  it('json: counts and sorted diagnostics', () => {
    const parsed = JSON.parse(renderDiagnosticsJson([late, early], { path: 'a.yaml' }));
    expect(parsed).toMatchObject({ valid: false, errors: 1, warnings: 1, path: 'a.yaml' });
    expect(parsed.diagnostics.map((d: Diagnostic) => d.line)).toEqual([2, 9]);
  });

  describe('a huge broken file prints a bounded number of diagnostics', () => {
    /** `errors` errors and `warnings` warnings, one per line, warnings first in the file. */
    const many = (errors: number, warnings: number): Diagnostic[] => [
      ...Array.from({ length: warnings }, (_, i): Diagnostic => ({ ...late, line: i + 1 })),
      ...Array.from({ length: errors }, (_, i): Diagnostic => ({ ...early, line: warnings + i + 1 })),
    ];

    it('text: the first errors, then one line counting the rest', () => {
      const lines = renderDiagnosticsText(many(3000, 0)).trimEnd().split('\n');
      const shown = lines.filter((l) => l.includes(' error [contradiction] '));
      expect(shown).toHaveLength(MAX_PRINTED_DIAGNOSTICS);
      expect(shown[0]).toMatch(/^a\.yaml:1:5: /);
      expect(lines.at(-1)).toBe(
        `... ${3000 - MAX_PRINTED_DIAGNOSTICS} more diagnostics not shown (2950 errors)`,
      );
    });

    it('errors come before warnings, however many warnings come first in the file', () => {
      const text = renderDiagnosticsText(many(10, 100));
      expect(text.match(/ error \[/g)).toHaveLength(10);
      expect(text.match(/ warning \[/g)).toHaveLength(MAX_PRINTED_DIAGNOSTICS - 10);
      expect(text).toMatch(/\n\.\.\. 60 more diagnostics not shown \(60 warnings\)\n$/);
      // Still in the order of the file: the warnings shown are the first ones, before the errors.
      expect(text.indexOf(' warning [')).toBeLessThan(text.indexOf(' error ['));
    });

    it('github: one annotation per shown diagnostic, then one plain line counting the rest', () => {
      const out = renderDiagnosticsGithub(many(1, 3000)).trimEnd().split('\n');
      expect(out.filter((l) => l.startsWith('::error '))).toHaveLength(1);
      expect(out.filter((l) => l.startsWith('::warning '))).toHaveLength(MAX_PRINTED_DIAGNOSTICS - 1);
      expect(out).toHaveLength(MAX_PRINTED_DIAGNOSTICS + 1);
      expect(out.at(-1)).toBe('... 2951 more diagnostics not shown (2951 warnings)');
    });

    it('nothing is added when nothing is left out', () => {
      const exactly = many(MAX_PRINTED_DIAGNOSTICS, 0);
      expect(renderDiagnosticsText(exactly)).not.toContain('not shown');
      expect(renderDiagnosticsGithub(exactly)).not.toContain('not shown');
    });

    it('json: complete counts, a bounded list and how many were omitted', () => {
      const report = JSON.parse(renderDiagnosticsJson(many(5000, 7), { path: 'a.yaml' }));
      expect(report).toMatchObject({ valid: false, errors: 5000, warnings: 7, path: 'a.yaml' });
      expect(report.diagnostics).toHaveLength(MAX_JSON_DIAGNOSTICS);
      expect(report.omitted).toBe(5007 - MAX_JSON_DIAGNOSTICS);
      expect(JSON.parse(renderDiagnosticsJson([late])).omitted).toBe(0);
    });
  });
});
