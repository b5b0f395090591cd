import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { svcError } from '../helpers/errors.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { start } from '../sandbox/helpers.js';
import { startServer } from './helpers/server.js';

/**
 * With no SVC_NAMESPACE the client finds the interface namespace itself: a MainWP dashboard
 * serves `mainwp/…` abilities and `/wp-json/mainwp/v2`, the sandbox `svc`.
 */
function client(env: Record<string, string>) {
  const { SVC_NAMESPACE: _set, ...unset } = env;
  const { settings } = loadSettings({
    env: unset,
    cwd: '/nonexistent-cwd',
    fs,
    homeDir: '/nonexistent-home',
  });
  return createDashboardClient(settings);
}

describe('namespace discovery', () => {
  const abilities = sandboxPer('suite', () => start({ profile: 'compat-6.1', namespace: 'mainwp' }));
  const restOnly = sandboxPer('suite', () =>
    start({ profile: 'compat-6.1', namespace: 'mainwp', surfaces: { abilities: false } }),
  );

  it('takes the one catalogue namespace offering list-updates-v1', async () => {
    const dashboard = client(fastClientEnv(abilities));
    try {
      const live = await dashboard.readLive();
      expect(live.capabilities.surface).toBe('abilities');
      expect(live.sites.length).toBeGreaterThan(0);
    } finally {
      await dashboard.close();
    }
  });

  it('takes the one dashboard REST v2 namespace of the REST index when there is no abilities API', async () => {
    const dashboard = client(fastClientEnv(restOnly));
    try {
      const live = await dashboard.readLive();
      expect(live.capabilities.surface).toBe('rest');
      expect(live.sites.length).toBeGreaterThan(0);
    } finally {
      await dashboard.close();
    }
  });

  it('refuses to choose between several namespaces, naming them', async () => {
    const server = await startServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      const ability = (name: string) => ({ name, label: name, meta: { annotations: { readonly: true } } });
      res.end(
        JSON.stringify([
          ability('acme/list-updates-v1'),
          ability('mainwp/list-updates-v1'),
          ability('core/x'),
        ]),
      );
    });
    const dashboard = client({
      SVC_URL: server.url,
      SVC_ALLOW_HTTP: 'true',
      SVC_USER: 'u',
      SVC_APP_PASSWORD: 'p',
    });
    try {
      const error = await svcError(dashboard.readLive());
      expect(error.code).toBe('SETTINGS_INVALID');
      expect(error.message).toContain('acme, mainwp');
      expect(error.hint).toContain('SVC_NAMESPACE=acme');
    } finally {
      await dashboard.close();
      await server.close();
    }
  });
});
