import * as fs from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDesired, readPlanFile, requireDesired, type SvcError } from '../../src/index.js';
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

  it('a plan file missing, not JSON, or not a plan: a reason in the engine, `plan --out FILE` in the CLI', async () => {
    const cwd = tempDirForFile('svc-gitops-words-');
    writeFileSync(join(cwd, 'broken.json'), '{ not json');
    writeFileSync(join(cwd, 'other.json'), '{"format_version": 3}');
    const cases = [
      ['missing.json', 'plan-file-unreadable', 'save a plan with `svc-gitops plan --out FILE` (format json)'],
      [
        'broken.json',
        'plan-file-not-json',
        'apply takes the JSON plan written by `svc-gitops plan --out FILE`\n',
      ],
      [
        'other.json',
        'plan-file-schema',
        'apply takes the JSON plan written by `svc-gitops plan --out FILE`, unedited: plan again',
      ],
    ] as const;
    for (const [file, reason, hint] of cases) {
      let refused: SvcError | undefined;
      try {
        readPlanFile(fs, join(cwd, file));
      } catch (error) {
        refused = error as SvcError;
      }
      expect(refused?.details.reason).toBe(reason);
      expect(refused?.hint).toBeUndefined();
      expect(refused?.message).not.toContain('--out');

      const run = await cli(['apply', file], { cwd, env: { SVC_URL: 'https://dashboard.example.test' } });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`  hint: ${hint}`);
    }
  });
});
