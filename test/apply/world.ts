import type * as nodeFs from 'node:fs';
import { loadDesiredState } from '../../src/config/index.js';
import type { DashboardClient } from '../../src/dashboard/client.js';
import { createDashboardClient } from '../../src/dashboard/index.js';
import { createPlan } from '../../src/plan/index.js';
import {
  type FaultRule,
  type Fleet,
  parseFleet,
  type RunningSandbox,
  type SandboxProfile,
  startSandbox,
} from '../../src/sandbox/index.js';
import { loadSettings, type Settings } from '../../src/settings/index.js';
import type { DesiredState, LiveState, Plan } from '../../src/types.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { fastClientEnv, sandboxControl } from '../helpers/sandbox.js';

/**
 * A sandbox dashboard plus a desired-state config in memfs, for apply tests through the real
 * client. `control` speaks to the sandbox's `/__sandbox/` routes (stats, state, pending, faults).
 */

export const FLEET = `
sites:
  - id: 1
    url: https://alpha.fleet.test/
    plugins:
      akismet/akismet.php: "5.3.0 -> 5.3.1"
      classic-editor/classic-editor.php: "1.6.0 -> 1.6.1"
      jetpack/jetpack.php: "13.0.0 -> 13.1.0"
    themes:
      astra: "4.6.0 -> 4.6.1"
  - id: 2
    url: https://beta.fleet.test/
    plugins:
      akismet/akismet.php: "5.3.0 -> 5.3.1"
      jetpack/jetpack.php: "13.0.0 -> 13.1.0"
    themes:
      astra: "4.6.0 -> 4.6.1"
  - id: 3
    url: https://gamma.fleet.test/
    plugins:
      akismet/akismet.php: "5.3.0 -> 5.3.1"
      jetpack/jetpack.php: "13.0.0 -> 13.1.0"
      classic-editor/classic-editor.php: "1.6.0 -> 1.6.1"
    themes:
      astra: "4.6.0 -> 4.6.1"
  - id: 4
    url: https://delta.fleet.test/
    plugins:
      akismet/akismet.php: "5.3.0 -> 5.3.1"
      wordfence/wordfence.php: "7.0.0 -> 8.0.0"
    themes:
      twentytwentyfour: "1.0 -> 1.1"
  - id: 5
    url: https://epsilon.fleet.test/
    plugins:
      akismet/akismet.php: "5.3.0 -> 5.3.1"
    ignores:
      plugins: [wordfence/wordfence.php]
`;

export const CONFIG = `version: 1
ignores:
  unmanaged: remove
  rules:
    - sites: [all]
      plugins: [classic-editor/classic-editor.php]
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes]
    max: minor
`;

export interface World {
  sandbox: RunningSandbox;
  env: Record<string, string>;
  fs: typeof nodeFs;
  cwd: string;
  settings(overrides?: Partial<Settings>): Settings;
  client(overrides?: Partial<Settings>): DashboardClient;
  desired(): Promise<DesiredState>;
  /** Reads live and plans, as the CLI does. */
  plan(now?: Date): Promise<{ plan: Plan; live: LiveState; desired: DesiredState }>;
  stats(): Promise<{
    requests_total: number;
    requests: Record<string, number>;
    abilities: Record<string, number>;
    updates_run: Array<{ count: number }>;
  }>;
  sandboxState(): Promise<{ sites: Array<{ id: number; pending: unknown[]; ignores: unknown }> }>;
  control(method: string, route: string, body?: unknown): Promise<unknown>;
  writeConfig(text: string): void;
  close(): Promise<void>;
}

export interface WorldOptions {
  profile?: SandboxProfile;
  /** Fleet YAML, or a fleet as built (generateFleet). */
  fleet?: string | Fleet;
  config?: string;
  faults?: FaultRule[];
  seed?: number;
  queueThreshold?: number;
  /** Which API surfaces the sandbox offers (a dashboard without the abilities API: REST only). */
  surfaces?: { rest?: boolean; abilities?: boolean };
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const sandbox = await startSandbox({
    fleet: typeof options.fleet === 'object' ? options.fleet : parseFleet(options.fleet ?? FLEET),
    profile: options.profile ?? 'spec',
    seed: options.seed ?? 1,
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.queueThreshold ? { queueThreshold: options.queueThreshold } : {}),
    ...(options.surfaces ? { surfaces: options.surfaces } : {}),
  });
  const env = fastClientEnv(sandbox);
  const cwd = '/work';
  const fs = memoryFs({ [`${cwd}/svc-gitops.yaml`]: options.config ?? CONFIG });
  const clients: DashboardClient[] = [];
  const settings = (overrides: Partial<Settings> = {}) =>
    loadSettings({ env, cwd, fs, homeDir: '/home/nobody', overrides }).settings;
  const client = (overrides: Partial<Settings> = {}) => {
    const created = createDashboardClient(settings(overrides));
    clients.push(created);
    return created;
  };
  const desired = async () => {
    const loaded = await loadDesiredState({ path: 'svc-gitops.yaml', fs, cwd });
    if (!loaded.desired) throw new Error(`config invalid: ${JSON.stringify(loaded.diagnostics)}`);
    return loaded.desired;
  };
  const control = sandboxControl(sandbox);
  return {
    sandbox,
    env,
    fs,
    cwd,
    settings,
    client,
    desired,
    async plan(now = new Date()) {
      const reader = client();
      const live = await reader.readLive();
      const wanted = await desired();
      return { plan: createPlan(wanted, live, { now, lifetimeMinutes: 60 }), live, desired: wanted };
    },
    stats: async () => (await control('GET', 'stats')) as Awaited<ReturnType<World['stats']>>,
    sandboxState: async () => (await control('GET', 'state')) as Awaited<ReturnType<World['sandboxState']>>,
    control,
    writeConfig: (text) => fs.writeFileSync(`${cwd}/svc-gitops.yaml`, text),
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await sandbox.close();
    },
  };
}

/** Every update the sandbox ran, by how often: no entry may exceed 1. */
export function maxRunsPerUpdate(stats: { updates_run: Array<{ count: number }> }): number {
  return Math.max(0, ...stats.updates_run.map((u) => u.count));
}

/**
 * Moves the world behind a saved plan's back: site 2 (touched by every plan of the default
 * config) gets a newer akismet, and the sandbox's stats restart so "nothing sent" can be checked.
 */
export async function changeTouchedSite(world: World): Promise<void> {
  await world.control('POST', 'pending', {
    site: 2,
    kind: 'plugin',
    slug: 'akismet/akismet.php',
    to: '5.4.0',
  });
  await world.control('POST', 'stats/reset');
}
