import type * as nodeFs from 'node:fs';
import { compareDiagnostics, type Diagnostic } from '../errors.js';
import type { DesiredState } from '../types.js';
import { buildDesiredState } from './build.js';
import { mergeFiles } from './merge.js';
import type { FileState } from './model.js';
import { normaliseFile } from './normalise.js';
import { Pacer } from './pace.js';
import type { Locate } from './places.js';
import { jsonPointer } from './pointer.js';
import { runRules } from './rules/index.js';
import { checkSchema } from './schema.js';
import { readSources } from './sources.js';
import { type ParsedYaml, parseYaml } from './yaml.js';

export interface LoadOptions {
  /** A file, or a directory whose *.yaml/*.yml files are merged; relative to `cwd`. */
  path: string;
  fs: typeof nodeFs;
  cwd: string;
  /**
   * Aborted (SIGINT/SIGTERM): the load stops at its next step with SvcError INTERRUPTED. The work
   * gives the event loop a turn at least every 50 ms, so a signal handler runs within that.
   */
  signal?: AbortSignal | undefined;
  /** Called once the files are read, before the work on them: how many, and their bytes. */
  onRead?: (read: { files: number; bytes: number }) => void;
}

export interface LoadResult {
  /** Present only when no diagnostic is an error. */
  desired?: DesiredState;
  diagnostics: Diagnostic[];
}

/**
 * Reads, parses, schema-checks, normalises, merges and rule-checks the desired state. Structure
 * comes first: the semantic rules run only when every file parsed and passed the schema, so they
 * never report consequences of a broken file. Never throws on bad input; throws INTERRUPTED
 * once `signal` is aborted.
 */
export async function loadDesiredState(o: LoadOptions): Promise<LoadResult> {
  const pacer = new Pacer(o.signal);
  const { files, diagnostics } = await readSources(o);
  o.onRead?.({ files: files.length, bytes: files.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0) });
  const parsedByFile = new Map<string, ParsedYaml>();
  const states: FileState[] = [];
  for (const source of files) {
    await pacer.step();
    const { parsed, diagnostics: yamlDiagnostics } = await parseYaml(source.file, source.text, pacer);
    append(diagnostics, yamlDiagnostics);
    if (!parsed) continue;
    parsedByFile.set(source.file, parsed);
    const schemaDiagnostics = await checkSchema(source.file, parsed, pacer);
    append(diagnostics, schemaDiagnostics);
    await pacer.step();
    if (schemaDiagnostics.length === 0)
      states.push(normaliseFile(source.file, parsed.data as Record<string, unknown>));
  }
  await pacer.step();
  if (hasErrors(diagnostics) || states.length !== files.length || files.length === 0) {
    return { diagnostics: inOrder(ensureError(diagnostics)) };
  }
  const locate: Locate = (place, key) => {
    const position = parsedByFile.get(place.file)?.locate(place.path, key) ?? { line: 1, col: 1 };
    return { file: place.file, line: position.line, col: position.col, path: jsonPointer(place.path) };
  };
  const { merged, diagnostics: mergeDiagnostics } = mergeFiles(states, locate);
  append(diagnostics, mergeDiagnostics);
  await pacer.step();
  append(diagnostics, await runRules({ merged, locate }, pacer));
  if (hasErrors(diagnostics)) return { diagnostics: inOrder(diagnostics) };
  await pacer.step();
  const desired = buildDesiredState(
    merged,
    files.map((f) => ({ path: f.file, sha256: f.sha256 })),
    locate,
  );
  return { desired, diagnostics: inOrder(diagnostics) };
}

/** A loop, not push(...): a broken file may give more diagnostics than a call can take as arguments. */
function append(to: Diagnostic[], more: readonly Diagnostic[]): void {
  for (const diagnostic of more) to.push(diagnostic);
}

/** Diagnostics by file, line and column (stable), so output does not depend on rule order. */
function inOrder(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(compareDiagnostics);
}

function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Invariant: no desired state means at least one error says why. */
function ensureError(diagnostics: Diagnostic[]): Diagnostic[] {
  if (hasErrors(diagnostics)) return diagnostics;
  return [
    ...diagnostics,
    {
      severity: 'error',
      rule: 'internal',
      message: 'the desired state could not be read (no further detail)',
    },
  ];
}
