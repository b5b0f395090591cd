import { isScalar, LineCounter } from 'yaml';
import type { Diagnostic } from '../errors.js';
import { LIMITS } from './limits.js';
import type { Segment } from './model.js';
import { parseBounded } from './nesting.js';
import { checkKeysAndDepth, locate } from './yaml-nodes.js';

export interface Position {
  line: number;
  col: number;
}

/** A parsed YAML file: its plain data and a way back from a JSON path to a line and column. */
export interface ParsedYaml {
  data: unknown;
  /** Position of the value at `path`, or of its key when `key` is set; the nearest existing ancestor otherwise. */
  locate(path: readonly Segment[], key?: boolean): Position;
  /** The source text of the scalar at `path` (e.g. `9.40` before it became the number 9.4). */
  scalarSource(path: readonly Segment[]): string | undefined;
}

const YAML_ERROR_RULES: Record<string, { rule: string; hint: string }> = {
  DUPLICATE_KEY: {
    rule: 'duplicate-key',
    hint: 'each key may appear once per mapping; merge the two entries',
  },
  TAB_AS_INDENT: { rule: 'yaml-tab', hint: 'indent with spaces; YAML does not allow tabs for indentation' },
  MULTIPLE_DOCS: {
    rule: 'yaml-multiple-documents',
    hint: 'put one document per file (remove the extra `---`), or split it into files in a directory',
  },
};

/**
 * Parses one file's text. Never throws: syntax errors, duplicate keys, tabs, non-string keys,
 * excessive nesting, alias bombs and unresolved aliases all become diagnostics.
 */
export function parseYaml(file: string, text: string): { parsed?: ParsedYaml; diagnostics: Diagnostic[] } {
  const at = (line: number, col: number) => ({ file, line, col });
  const lineCounter = new LineCounter();
  let bounded: ReturnType<typeof parseBounded>;
  try {
    bounded = parseBounded(text, lineCounter);
  } catch (error) {
    // The parser reports problems as document errors; this is the last line of defence.
    const message = error instanceof Error ? error.message : String(error);
    return {
      diagnostics: [{ severity: 'error', rule: 'yaml-syntax', message: firstLine(message), ...at(1, 1) }],
    };
  }
  if ('tooDeep' in bounded) {
    return {
      diagnostics: [
        {
          severity: 'error',
          rule: 'too-deep',
          message: bounded.tooDeep,
          ...at(1, 1),
          hint: 'this is not a desired-state file; the format needs only a few levels of nesting',
        },
      ],
    };
  }
  const { doc } = bounded;
  const position = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, col };
  };
  const diagnostics: Diagnostic[] = [];
  for (const error of doc.errors) {
    const known = YAML_ERROR_RULES[error.code];
    diagnostics.push({
      severity: 'error',
      rule: known?.rule ?? 'yaml-syntax',
      message: firstLine(error.message),
      file,
      ...position(error.pos[0]),
      hint:
        known?.hint ??
        'fix the YAML syntax at this position (quote values that contain `:`, `#`, `[` or `{`)',
    });
  }
  for (const warning of doc.warnings) {
    diagnostics.push({
      severity: 'warning',
      rule: 'yaml-warning',
      message: firstLine(warning.message),
      file,
      ...position(warning.pos[0]),
    });
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { diagnostics };
  if (doc.contents === null) {
    diagnostics.push({
      severity: 'error',
      rule: 'empty-file',
      message: 'the file holds no YAML document',
      ...at(1, 1),
      hint: 'start the file with `version: 1`, or remove it',
    });
    return { diagnostics };
  }
  const structural = checkKeysAndDepth(doc.contents, position, file);
  if (structural.length > 0) return { diagnostics: [...diagnostics, ...structural] };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: LIMITS.maxAliasCount });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const bomb = /alias count/i.test(message);
    diagnostics.push({
      severity: 'error',
      rule: bomb ? 'alias-limit' : 'yaml-alias',
      message: bomb
        ? `aliases expand too much (more than ${LIMITS.maxAliasCount} resolved)`
        : firstLine(message),
      ...at(1, 1),
      hint: bomb
        ? 'write the values out instead of nesting aliases'
        : 'define the anchor (&name) before using the alias (*name)',
    });
    return { diagnostics };
  }
  const parsed: ParsedYaml = {
    data,
    locate: (path, key) => locate(doc, position, path, key ?? false),
    scalarSource: (path) => {
      const node = doc.getIn(path, true);
      return isScalar(node) && typeof node.source === 'string' ? node.source : undefined;
    },
  };
  return { parsed, diagnostics };
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}
