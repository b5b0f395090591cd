import type * as nodeFs from 'node:fs';
import { loadDesiredState } from '../../src/config/index.js';
import type { Diagnostic } from '../../src/errors.js';
import { memoryFs as anyMemoryFs } from '../helpers/memory-fs.js';

export const CWD = '/repo';

/** A memfs file system holding the given files (paths relative to /repo). */
export function memoryFs(files: Record<string, string | Buffer>): typeof nodeFs {
  const json: Record<string, string | Buffer | null> = { [`${CWD}/.keep`]: '' };
  for (const [name, content] of Object.entries(files)) json[`${CWD}/${name}`] = content;
  return anyMemoryFs(json);
}

/** Loads `path` from a memory file system holding `files`. */
export function loadFrom(files: Record<string, string | Buffer>, path = 'svc-gitops.yaml') {
  return loadDesiredState({ path, fs: memoryFs(files), cwd: CWD });
}

/** Loads a single YAML text as svc-gitops.yaml. */
export function loadText(text: string) {
  return loadFrom({ 'svc-gitops.yaml': text });
}

export function errors(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error');
}

export function rulesOf(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.rule);
}

/** A valid document with the given YAML appended after `version: 1`. */
export function doc(body: string): string {
  return `version: 1\n${body}`;
}
