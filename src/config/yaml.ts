import { type Document, isScalar, LineCounter, type ToJSOptions, type YAMLError } from 'yaml';
import { type Diagnostic, isSvcError } from '../errors.js';
import { LIMITS } from './limits.js';
import type { Position, Segment } from './model.js';
import { type Bounded, parseBounded, parseBoundedSync } from './nesting.js';
import type { Pacer } from './pace.js';
import { checkKeysAndDepth, failingAlias, locate } from './yaml-nodes.js';

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

/** The library's codes for a tag it could not resolve or apply (reported at the tag). */
const TAG_CODES: ReadonlySet<string> = new Set(['TAG_RESOLVE_FAILED', 'BAD_COLLECTION_TYPE']);

/**
 * The core schema's own tags: each gives exactly the plain value it names (`!!str 9.40` is the
 * text `9.40`, the usual way to keep a version text), which the schema then checks as usual.
 */
const PLAIN_TAGS: ReadonlySet<string> = new Set([
  '!!str',
  '!!int',
  '!!float',
  '!!bool',
  '!!null',
  '!!map',
  '!!seq',
]);

/**
 * Every other tag is refused, at the tag. Parsed with the core schema, a value tagged `!!binary`,
 * `!!timestamp`, `!!set` or `!!omap` still becomes bytes, a date, a Set or a Map (the library's
 * `resolveKnownTags`), which the schema then misdescribes or, for a Set or Map, sees as an empty
 * mapping; unknown tags (`!foo`) stay text with only a warning. No desired state needs a tag.
 * Untagged values are untouched: the core schema has no implicit timestamps, so `2026-01-01`
 * stays the string it looks like.
 */
function tagDiagnostic(source: string): Omit<Diagnostic, 'file' | 'line' | 'col'> {
  const shown = source.length > 40 ? `${source.slice(0, 39)}…` : source;
  return {
    severity: 'error',
    rule: 'yaml-tag',
    message: `YAML tags are not supported in desired-state files: found \`${shown}\``,
    hint: "remove the tag and write a plain value (quote it to keep it text, e.g. '2026-01-01')",
  };
}

/**
 * Parses one file's text. Never throws: syntax errors, duplicate keys, tabs, tags, non-string
 * keys, excessive nesting, alias bombs and unresolved aliases all become diagnostics, located at
 * the place in the file that causes them.
 */
export async function parseYaml(file: string, text: string, pacer: Pacer): Promise<YamlResult> {
  const lineCounter = new LineCounter();
  let bounded: Bounded;
  try {
    bounded = await parseBounded(text, lineCounter, pacer);
  } catch (error) {
    if (isSvcError(error)) throw error;
    return { diagnostics: [parserFailure(file, error)] };
  }
  await pacer.step();
  return fromBounded(file, bounded, lineCounter);
}

/** parseYaml in one synchronous step, for small texts (a saved plan's positions). */
export function parseYamlSync(file: string, text: string): YamlResult {
  const lineCounter = new LineCounter();
  try {
    return fromBounded(file, parseBoundedSync(text, lineCounter), lineCounter);
  } catch (error) {
    return { diagnostics: [parserFailure(file, error)] };
  }
}

type YamlResult = { parsed?: ParsedYaml; diagnostics: Diagnostic[] };

/** The parser reports problems as document errors; this is the last line of defence. */
function parserFailure(file: string, error: unknown): Diagnostic {
  const message = error instanceof Error ? error.message : String(error);
  return { severity: 'error', rule: 'yaml-syntax', message: firstLine(message), file, line: 1, col: 1 };
}

function fromBounded(file: string, bounded: Bounded, lineCounter: LineCounter): YamlResult {
  const at = (line: number, col: number) => ({ file, line, col });
  const position = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, col };
  };
  if ('tooDeep' in bounded) {
    return {
      diagnostics: [
        {
          severity: 'error',
          rule: 'too-deep',
          message: bounded.tooDeep.message,
          file,
          ...position(bounded.tooDeep.offset),
          hint: 'this is not a desired-state file; the format needs only a few levels of nesting',
        },
      ],
    };
  }
  const { doc } = bounded;
  const tags = bounded.tags.filter((tag) => !PLAIN_TAGS.has(tag.source));
  const diagnostics: Diagnostic[] = [];
  // Such tags are refused below, at the tag; the library's complaints about resolving them would only repeat that.
  const tagOffsets = new Set(tags.map((t) => t.offset));
  const aboutTag = (e: YAMLError) => TAG_CODES.has(e.code) && tagOffsets.has(e.pos[0]);
  for (const error of doc.errors) {
    if (aboutTag(error)) continue;
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
    if (aboutTag(warning)) continue;
    diagnostics.push({
      severity: 'warning',
      rule: 'yaml-warning',
      message: firstLine(warning.message),
      file,
      ...position(warning.pos[0]),
    });
  }
  for (const tag of tags) diagnostics.push({ ...tagDiagnostic(tag.source), file, ...position(tag.offset) });
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
  const toJsOptions = { maxAliasCount: LIMITS.maxAliasCount };
  let data: unknown;
  try {
    data = doc.toJS(toJsOptions);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const bomb = /alias count/i.test(message);
    diagnostics.push({
      severity: 'error',
      rule: bomb ? 'alias-limit' : 'yaml-alias',
      message: bomb
        ? `aliases expand too much (more than ${LIMITS.maxAliasCount} resolved)`
        : firstLine(message),
      file,
      ...aliasPosition(doc, toJsOptions, position),
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

/** Where converting to plain data failed: at the alias it stopped at, else the document's start. */
function aliasPosition(
  doc: Document.Parsed,
  options: ToJSOptions,
  position: (offset: number) => Position,
): Position {
  return position(failingAlias(doc, options)?.range?.[0] ?? doc.range[0]);
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}
