import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/** `apply --dry-run --format json`: the calls as JSON that fits schemas/apply-dry-run.schema.json. */
const ROOT = join(import.meta.dirname, '..', '..');
const sandbox = sandboxPer('suite', () =>
  startSandbox({
    fleet: parseFleet(
      readFileSync(join(ROOT, 'examples/sandbox/demo-fleet.yaml'), 'utf8'),
      'demo-fleet.yaml',
    ),
  }),
);

describe('apply --dry-run --format json', () => {
  it('prints the calls as JSON that fits its schema, and sends nothing', async () => {
    const dir = tempDirForFile('svc-gitops-dry-run-');
    const env = { ...fastClientEnv(sandbox), SVC_ALLOW_HTTP: 'true', HOME: dir };
    const config = join(ROOT, 'examples/minimal.yaml');
    const run = await cli(['apply', '-c', config, '--dry-run', '--format', 'json'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout) as {
      calls: number;
      phases: Array<{ kind: string; calls: unknown[] }>;
    };
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/apply-dry-run.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    expect(document.calls).toBeGreaterThan(0);
    expect(document.calls).toBe(document.phases.reduce((n, p) => n + p.calls.length, 0));
    expect(document.phases.map((p) => p.kind)).toEqual(['ignore', 'update']);
    // Nothing was sent: the same plan still has every change.
    const after = await cli(['plan', '-c', config, '--format', 'json'], { cwd: dir, env });
    expect((JSON.parse(after.stdout) as { actions: unknown[] }).actions.length).toBeGreaterThan(0);
    const text = await cli(['apply', '-c', config, '--dry-run'], { cwd: dir, env });
    expect(text.stdout).toMatch(/^Dry run: \d+ call\(s\) would be sent to /m);
  });
});
