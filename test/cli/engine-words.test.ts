import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDesired, requireDesired, type SvcError } from '../../src/index.js';
import { cli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * The engine says what happened (a code, a reason, data); the CLI words it with its own commands.
 * A desired state with errors is the case every front end meets first.
 */
describe('the CLI words the engine’s refusals', () => {
  it('a desired state with errors: no CLI words in the engine, `svc-gitops validate -c` in the CLI', async () => {
    const cwd = tempDirForFile('svc-gitops-words-');
    writeFileSync(join(cwd, 'bad.yaml'), 'version: 1\nupdates: 3\n');
    const load = await loadDesired({ cwd, config: 'bad.yaml' });
    let refused: SvcError | undefined;
    try {
      requireDesired(load);
    } catch (error) {
      refused = error as SvcError;
    }
    expect(refused).toMatchObject({
      code: 'CONFIG_INVALID',
      details: { reason: 'desired-invalid', path: 'bad.yaml' },
    });
    expect(refused?.hint).toBeUndefined();

    const run = await cli(['plan', '-c', 'bad.yaml'], {
      cwd,
      env: { SVC_URL: 'https://dashboard.example.test' },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('fix them and check with `svc-gitops validate -c bad.yaml`');
  });
});
