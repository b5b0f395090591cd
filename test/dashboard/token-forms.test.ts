import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { start } from '../sandbox/helpers.js';

/**
 * MainWP's UI shows the REST key as `<secret>==<key>` and its bearer parser adds the `cs_` /
 * `ck_` prefixes; the stored pair is `cs_…==ck_…`. Either form works against the sandbox, which
 * prints the UI's form, as against a real dashboard (test/real/rest.test.ts).
 */
describe('REST token forms', () => {
  const sandbox = sandboxPer('suite', () => start({ surfaces: { abilities: false } }));

  async function readWith(token: string) {
    const env = { ...fastClientEnv(sandbox), SVC_TOKEN: token };
    const { settings } = loadSettings({ env, cwd: '/nonexistent-cwd', fs, homeDir: '/nonexistent-home' });
    const dashboard = createDashboardClient(settings);
    try {
      return await dashboard.readLive();
    } finally {
      await dashboard.close();
    }
  }

  it('the sandbox prints the form MainWP shows', () => {
    expect(sandbox.env().SVC_TOKEN).toMatch(/^[0-9a-f]+==[0-9a-f]+$/);
  });

  it('reads with the shown form and with the prefixed pair alike', async () => {
    const shown = sandbox.env().SVC_TOKEN as string;
    const [secret, key] = shown.split('==');
    const a = await readWith(shown);
    const b = await readWith(`cs_${secret}==ck_${key}`);
    expect(a.capabilities.surface).toBe('rest');
    expect(b.sites).toEqual(a.sites);
  });
});
