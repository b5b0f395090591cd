import type * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { SvcError } from '../errors.js';

export const DEFAULT_CONFIG_FILE = 'svc-gitops.yaml';
export const DEFAULT_CONFIG_DIR = 'svc-gitops';

/**
 * Where the desired state is when `-c` is not given: `svc-gitops.yaml` in the working directory,
 * or else the directory `svc-gitops/`. Both present is ambiguous and an error, so nobody edits the
 * one that is not read.
 */
export function resolveConfigPath(fs: typeof nodeFs, cwd: string, explicit?: string): string {
  if (explicit !== undefined && explicit !== '') return explicit;
  const exists = (name: string) => fs.existsSync(nodePath.join(cwd, name));
  const file = exists(DEFAULT_CONFIG_FILE);
  const dir = exists(DEFAULT_CONFIG_DIR);
  if (file && dir) {
    throw new SvcError('USAGE', `both ${DEFAULT_CONFIG_FILE} and ${DEFAULT_CONFIG_DIR}/ exist`, {
      hint: 'keep one of them, or choose with -c PATH',
    });
  }
  if (dir) return DEFAULT_CONFIG_DIR;
  if (file) return DEFAULT_CONFIG_FILE;
  throw new SvcError('CONFIG_INVALID', `no ${DEFAULT_CONFIG_FILE} or ${DEFAULT_CONFIG_DIR}/ in ${cwd}`, {
    hint: '`svc-gitops init` writes one (imported from the dashboard when SVC_URL is set, else a starter), or pass -c PATH',
  });
}
