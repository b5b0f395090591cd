import type * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { SvcError } from '../errors.js';

export const DEFAULT_CONFIG_FILE = 'svc-gitops.yaml';
export const DEFAULT_CONFIG_DIR = 'svc-gitops';

/** How the caller names the desired-state path in its hints: the CLI's flag, a tool's argument. */
export interface ConfigChoice {
  /** What picks a path: `-c PATH`. */
  how: string;
  /** What makes a desired state where there is none. */
  create: string;
}

export const CLI_CONFIG_CHOICE: ConfigChoice = {
  how: '-c PATH',
  create: '`svc-gitops init` writes one (imported from the dashboard when SVC_URL is set, else a starter)',
};

/**
 * Where the desired state is when `-c` is not given: `svc-gitops.yaml` in the working directory,
 * or else the directory `svc-gitops/`. Both present is ambiguous and an error, so nobody edits the
 * one that is not read.
 */
export function resolveConfigPath(
  fs: typeof nodeFs,
  cwd: string,
  explicit?: string,
  choice: ConfigChoice = CLI_CONFIG_CHOICE,
): string {
  if (explicit !== undefined && explicit !== '') return explicit;
  const exists = (name: string) => fs.existsSync(nodePath.join(cwd, name));
  const file = exists(DEFAULT_CONFIG_FILE);
  const dir = exists(DEFAULT_CONFIG_DIR);
  if (file && dir) {
    throw new SvcError('USAGE', `both ${DEFAULT_CONFIG_FILE} and ${DEFAULT_CONFIG_DIR}/ exist`, {
      hint: `keep one of them, or choose with ${choice.how}`,
    });
  }
  if (dir) return DEFAULT_CONFIG_DIR;
  if (file) return DEFAULT_CONFIG_FILE;
  throw new SvcError('CONFIG_INVALID', `no ${DEFAULT_CONFIG_FILE} or ${DEFAULT_CONFIG_DIR}/ in ${cwd}`, {
    hint: `${choice.create}, or pass ${choice.how}`,
  });
}
