import { createHash } from 'node:crypto';
import type * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { Diagnostic } from '../errors.js';
import { LIMITS } from './limits.js';

/** One desired-state file as read from disk: its display name, text and content digest. */
export interface SourceFile {
  /** Path as shown to people: relative to cwd when inside it, with `/` separators. */
  file: string;
  text: string;
  sha256: string;
}

export interface ReadOptions {
  path: string;
  fs: typeof nodeFs;
  cwd: string;
}

const YAML_FILE = /\.ya?ml$/i;

const WITHOUT_LINE = new Set([
  'config-not-found',
  'config-unreadable',
  'no-yaml-files',
  'too-many-files',
  'config-too-large',
]);

/**
 * Reads a file, or every `*.yaml`/`*.yml` file directly inside a directory (sorted by name, hidden
 * files skipped). Never throws: missing paths, unreadable, oversized and binary files become
 * diagnostics, and the readable files are still returned so every problem gets reported.
 */
export async function readSources(
  o: ReadOptions,
): Promise<{ files: SourceFile[]; diagnostics: Diagnostic[] }> {
  const absolute = nodePath.resolve(o.cwd, o.path);
  const shown = displayPath(absolute, o.cwd);
  const stat = await statOf(o.fs, absolute);
  if ('problem' in stat)
    return { files: [], diagnostics: [problem('config-not-found', shown, stat.problem)] };
  if (stat.isDirectory()) return readDirectory(o, absolute);
  if (!stat.isFile()) {
    return {
      files: [],
      diagnostics: [problem('config-not-found', shown, 'is neither a file nor a directory')],
    };
  }
  return readOne(o, absolute);
}

async function readDirectory(
  o: ReadOptions,
  directory: string,
): Promise<{ files: SourceFile[]; diagnostics: Diagnostic[] }> {
  const shown = displayPath(directory, o.cwd);
  let names: string[];
  try {
    names = (await o.fs.promises.readdir(directory)).map(String);
  } catch (error) {
    return { files: [], diagnostics: [problem('config-unreadable', shown, reason(error))] };
  }
  const yamlNames = names.filter((n) => YAML_FILE.test(n) && !n.startsWith('.')).sort();
  if (yamlNames.length === 0) {
    const d = problem('no-yaml-files', shown, 'is a directory with no *.yaml or *.yml files in it');
    d.hint = 'add a file such as svc-gitops.yaml starting with `version: 1`, or point -c at a file';
    return { files: [], diagnostics: [d] };
  }
  if (yamlNames.length > LIMITS.maxFiles) {
    const message = `the directory holds ${yamlNames.length} YAML files; at most ${LIMITS.maxFiles} are read`;
    return { files: [], diagnostics: [problem('too-many-files', shown, message)] };
  }
  const tooLarge = await totalProblem(o, directory, yamlNames);
  if (tooLarge) return { files: [], diagnostics: [tooLarge] };
  const files: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  let total = 0;
  for (const name of yamlNames) {
    const one = await readOne(o, nodePath.join(directory, name));
    files.push(...one.files);
    diagnostics.push(...one.diagnostics);
    for (const file of one.files) total += Buffer.byteLength(file.text);
  }
  // The sizes may have grown between stat and read; the limit holds for what was read.
  if (total > LIMITS.maxTotalBytes) return { files: [], diagnostics: [totalDiagnostic(shown, total)] };
  return { files, diagnostics };
}

/** The directory's files together above LIMITS.maxTotalBytes, by their sizes before reading. */
async function totalProblem(
  o: ReadOptions,
  directory: string,
  names: readonly string[],
): Promise<Diagnostic | undefined> {
  let total = 0;
  for (const name of names) {
    const stat = await statOf(o.fs, nodePath.join(directory, name));
    // A file that cannot be stat'ed is reported when it is read.
    if (!('problem' in stat) && stat.isFile()) total += stat.size;
  }
  return total > LIMITS.maxTotalBytes ? totalDiagnostic(displayPath(directory, o.cwd), total) : undefined;
}

function totalDiagnostic(shown: string, total: number): Diagnostic {
  const limit = LIMITS.maxTotalBytes;
  const d = problem(
    'config-too-large',
    shown,
    `holds ${total} bytes of YAML files together; the limit is ${limit} (${limit / 1024 / 1024} MiB)`,
  );
  d.hint = 'the desired state of even a large fleet is far smaller: check that the right directory is named';
  return d;
}

async function readOne(
  o: ReadOptions,
  absolute: string,
): Promise<{ files: SourceFile[]; diagnostics: Diagnostic[] }> {
  const shown = displayPath(absolute, o.cwd);
  const stat = await statOf(o.fs, absolute);
  if ('problem' in stat)
    return { files: [], diagnostics: [problem('config-unreadable', shown, stat.problem)] };
  if (!stat.isFile())
    return { files: [], diagnostics: [problem('config-unreadable', shown, 'is not a regular file')] };
  if (stat.size > LIMITS.maxFileBytes) {
    const d = problem(
      'file-too-large',
      shown,
      `is ${stat.size} bytes; the limit is ${LIMITS.maxFileBytes} (4 MiB)`,
    );
    d.hint = 'split the desired state into several files in a directory';
    return { files: [], diagnostics: [d] };
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await o.fs.promises.readFile(absolute));
  } catch (error) {
    return { files: [], diagnostics: [problem('config-unreadable', shown, reason(error))] };
  }
  // The size may have changed between stat and read; the limit holds for what was read.
  if (bytes.length > LIMITS.maxFileBytes) {
    return {
      files: [],
      diagnostics: [problem('file-too-large', shown, `is larger than ${LIMITS.maxFileBytes} bytes`)],
    };
  }
  const text = decodeText(bytes);
  if (text === undefined) {
    const d = problem('binary-file', shown, 'is not UTF-8 text (it contains binary data)');
    d.hint = 'desired-state files are UTF-8 YAML; check that the right file is named';
    return { files: [], diagnostics: [d] };
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { files: [{ file: shown, text, sha256 }], diagnostics: [] };
}

/** UTF-8 text without NUL bytes (a byte-order mark is dropped), or undefined for binary data. */
function decodeText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } catch {
    return undefined;
  }
}

export function displayPath(absolute: string, cwd: string): string {
  const relative = nodePath.relative(cwd, absolute);
  const inside = relative !== '' && !relative.startsWith('..') && !nodePath.isAbsolute(relative);
  return (inside ? relative : absolute).split(nodePath.sep).join('/');
}

async function statOf(fs: typeof nodeFs, absolute: string): Promise<nodeFs.Stats | { problem: string }> {
  try {
    return await fs.promises.stat(absolute);
  } catch (error) {
    return { problem: reason(error) };
  }
}

function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  if (code === 'EISDIR') return 'is a directory';
  return `cannot be read (${typeof code === 'string' ? code : 'unknown error'})`;
}

function problem(rule: string, file: string, what: string): Diagnostic {
  const d: Diagnostic = { severity: 'error', rule, message: `${file} ${what}`, file };
  // A path that cannot be opened, or a directory, has no line to point at; everything else is
  // about the whole file.
  if (!WITHOUT_LINE.has(rule)) Object.assign(d, { line: 1, col: 1 });
  return d;
}
