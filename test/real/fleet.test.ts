/**
 * The harness's fleet-size option (issue 31): sites that exist only in the dashboard's tables,
 * copied from a synced child with about six pending updates each, read as any other site.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { harness, realEnv, skipReason } from './harness.js';

describe.skipIf(skipReason())('real dashboard, fleet-size option', () => {
  afterAll(() => {
    if (!skipReason()) harness(['fleet', '0']);
  });

  it('reads 20 inserted sites with six pending updates each beside the three children', async () => {
    harness(['restore'], 180);
    expect(harness(['fleet', '20'])).toContain('"sites":23');
    const dir = mkdtempSync(join(tmpdir(), 'svc-real-fleet-'));
    writeFileSync(join(dir, 'svc-gitops.yaml'), 'version: 1\n');
    const r = await cli(['plan'], { env: realEnv(), cwd: dir });
    expect(r.code).toBe(0);
    // The children announce 10 updates; each fleet site has six.
    expect(r.stderr).toContain('Read 23 sites, 130 pending updates');
  });
});
