/**
 * The one scenario of the conformance suite, run on each surface of the real dashboard: import,
 * validate, plan, apply (an ignore, an unignore, a patch and a major update with safe mode off),
 * then re-plan until nothing is left.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { harness, realEnv } from './harness.js';

/**
 * Sites 1..3 are child1..child3. The harness announces akismet 3.1.6 (patch) and twentytwentyone
 * 1.0.1 (patch) everywhere, hello.php 2.0.0 (major) on sites 1 and 3, twentytwentyfive 2.0.0
 * (major) on sites 1 and 2; ui-ignores 3 adds a global ignore of twentytwentyfive and a per-site
 * ignore of akismet on site 3. Site 2 is named by its address, host:port.
 */
export const desired = (child2: string) => `version: 1
ignores:
  unmanaged: remove
  rules:
    - sites: [1]
      plugins: [hello.php]
    - sites: ['${child2}']
      themes: [twentytwentyone]
updates:
  - name: patches
    sites: [all]
    kinds: [plugins, themes]
    max: patch
  - name: majors
    sites: [3]
    kinds: [plugins]
    include: [hello.php]
    max: major
approval:
  major: false
`;

export interface Workspace {
  dir: string;
  env: Record<string, string | undefined>;
  run: (...argv: string[]) => ReturnType<typeof cli>;
}

/** The dashboard back at its start (with the UI's ignores) and a fresh working directory. */
export function freshWorkspace(extra: Record<string, string | undefined> = {}): Workspace {
  harness(['restore'], 180);
  harness(['ui-ignores', '3']);
  const dir = mkdtempSync(join(tmpdir(), 'svc-real-'));
  const env = { ...realEnv(), SVC_SAFE_MODE: 'false', ...extra };
  return { dir, env, run: (...argv) => cli(argv, { env, cwd: dir }) };
}

/** The scenario's desired state, with `rules` (YAML list items) added to its ignore rules. */
export function writeDesired(ws: Workspace, rules = ''): void {
  const dashboard = new URL(ws.env.SVC_URL as string);
  const child2 = `${dashboard.hostname}:${Number(dashboard.port) + 2}`;
  writeFileSync(join(ws.dir, 'svc-gitops.yaml'), desired(child2).replace('  rules:\n', `  rules:\n${rules}`));
}
