import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { svcError } from '../helpers/errors.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { start } from '../sandbox/helpers.js';

/**
 * The abilities routes blocked in front of a WordPress 6.9+ dashboard while MainWP's abilities
 * stay registered: its REST ignored listings answer 500 `ability_invalid_input` (seen on MainWP
 * 6.1.2; test/real/rest.test.ts). The read cannot go on; the error says what to unblock.
 */
describe('REST read with the abilities routes blocked', () => {
  const sandbox = sandboxPer('suite', () => start({ abilitiesBlocked: true }));

  it('fails naming the abilities routes to unblock', async () => {
    const { settings } = loadSettings({
      env: fastClientEnv(sandbox),
      cwd: '/nonexistent-cwd',
      fs,
      homeDir: '/nonexistent-home',
    });
    const dashboard = createDashboardClient(settings);
    try {
      const error = await svcError(dashboard.readLive());
      expect(error.message).toContain('ability_invalid_input');
      expect(error.hint).toContain('/wp-json/wp-abilities/v1/');
      expect(error.hint).toMatch(/^The dashboard's REST API runs its abilities internally/);
      // The exact routes: the catalogue and each ability's run route in the dashboard's namespace.
      expect(error.hint).toContain('GET /wp-json/wp-abilities/v1/abilities (the catalogue)');
      expect(error.hint).toContain('GET and POST /wp-json/wp-abilities/v1/abilities/svc/{ability}/run');
    } finally {
      await dashboard.close();
    }
  });
});
