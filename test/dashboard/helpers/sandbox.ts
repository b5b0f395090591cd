import * as fs from 'node:fs';
import { createDashboardClient, type DashboardClientOptions } from '../../../src/dashboard/index.js';
import {
  parseFleet,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from '../../../src/sandbox/index.js';
import { loadSettings, type Settings } from '../../../src/settings/index.js';
import { fastClientEnv, sandboxControl } from '../../helpers/sandbox.js';

/** A small fleet covering every state the reader must handle. */
export const FLEET_YAML = `
global_ignores:
  plugins: [hello-dolly/hello.php]
users:
  - { username: editor, application_password: "edit PASS word 0000", role: editor }
sites:
  - id: 1
    url: https://alpha.example.test/
    core: "6.8.1 -> 6.8.3"
    plugins:
      akismet/akismet.php: "5.3.6 -> 5.3.7"
      woocommerce/woocommerce.php: "9.0.0 -> 9.1.0"
      hello-dolly/hello.php: "1.6 -> 1.7"
      jetpack/jetpack.php: "13.0 -> 13.1"
    themes: { astra: "4.6.0 -> 4.7.0" }
    translations: [{ slug: akismet, language: de_DE, version: "5.3.6" }, { slug: akismet, language: fr_FR, version: "5.3.6" }]
    ignores: { plugins: [woocommerce/woocommerce.php] }
  - id: 2
    url: https://beta.example.test/
    core: "6.7.2 -> 6.8.3"
    plugins: { akismet/akismet.php: "5.3.6 -> 5.3.7", hello-dolly/hello.php: "1.6 -> 1.7" }
    themes: { twentytwentyfive: "1.0 -> 1.1" }
    ignores: { core: ["6.9"], themes: { astra: ["4.7.0", "4.8.0"] } }
    ignore_flags: [themes]
  - id: 3
    url: https://gamma.example.test/
    status: offline
    plugins: { akismet/akismet.php: "5.3.6 -> 5.3.7" }
  - id: 4
    url: https://delta.example.test/
    status: suspended
    plugins: { akismet/akismet.php: "5.3.5 -> 5.3.7" }
`;

export interface Harness {
  sandbox: RunningSandbox;
  settings: Settings;
  client(
    overrides?: Partial<Settings>,
    options?: DashboardClientOptions,
  ): ReturnType<typeof createDashboardClient>;
  stats(): Promise<{
    requests: Record<string, number>;
    abilities: Record<string, number>;
    updates_run: Array<{ site_id: number; slug: string; count: number }>;
  }>;
  control(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** A sandbox plus settings loaded the way the CLI loads them (from its env lines). */
export async function openHarness(
  options: Partial<SandboxOptions> = {},
  env: Record<string, string> = {},
): Promise<Harness> {
  const sandbox = await startSandbox({ fleet: parseFleet(FLEET_YAML, 'test-fleet.yaml'), ...options });
  const { settings } = loadSettings({
    env: fastClientEnv(sandbox, { SVC_REQUEST_TIMEOUT: '3000', SVC_JOB_POLL_INTERVAL: '0', ...env }),
    cwd: '/nonexistent-cwd',
    fs,
    homeDir: '/nonexistent-home',
  });
  const clients: Array<ReturnType<typeof createDashboardClient>> = [];
  const control = sandboxControl(sandbox);
  let closing: Promise<void> | undefined;
  return {
    sandbox,
    settings,
    client(overrides = {}, clientOptions = {}) {
      const client = createDashboardClient({ ...settings, ...overrides }, clientOptions);
      clients.push(client);
      return client;
    },
    stats: async () => (await control('GET', 'stats')) as Awaited<ReturnType<Harness['stats']>>,
    control,
    // Idempotent: a file's afterEach may meet a harness an earlier test already closed.
    close() {
      closing ??= Promise.all(clients.map((c) => c.close())).then(() => sandbox.close());
      return closing;
    },
  };
}
