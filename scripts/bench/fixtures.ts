/**
 * A generated fleet for benchmarks and property tests: `sites` sites with on average
 * `pendingPerSite` pending updates and `ignoredPerSite` per-site ignores, from a seeded PRNG so
 * every run (and every machine) sees the same fleet. In memory only.
 */
import type {
  DesiredState,
  LiveIgnore,
  LiveState,
  PendingUpdate,
  Site,
  SiteStatus,
} from '../../src/types.js';

export interface FleetOptions {
  sites: number;
  pendingPerSite: number;
  ignoredPerSite: number;
  seed?: number;
}

/** mulberry32: a tiny deterministic PRNG (the fleet must not depend on Math.random). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATUSES: SiteStatus[] = [
  'connected',
  'connected',
  'connected',
  'connected',
  'connected',
  'connected',
  'disconnected',
  'suspended',
];

/** The reference fleet's plugins (`pendingPerSite` ≤ 50): `plugin-<i>/plugin-<i>.php`, i below this. */
export const FLEET_PLUGINS = 200;

/** The folder of the fleet's i-th plugin: its slug in a vulnerability feed. */
export function fleetPluginFolder(i: number): string {
  return `plugin-${i}`;
}

export function generateFleet(options: FleetOptions): LiveState {
  const random = prng(options.seed ?? 42);
  const pick = (n: number): number => Math.floor(random() * n);
  const plugins = Array.from({ length: Math.max(FLEET_PLUGINS, options.pendingPerSite * 4) }, (_, i) => {
    const folder = fleetPluginFolder(i);
    return `${folder}/${folder}.php`;
  });
  const sites: Site[] = [];
  const pending: PendingUpdate[] = [];
  const ignores: LiveIgnore[] = [];
  for (let id = 1; id <= options.sites; id++) {
    sites.push({
      id,
      url: `https://site${id}.fleet.test/`,
      name: `site${id}.fleet.test`,
      status: STATUSES[pick(STATUSES.length)]!,
    });
    const used = new Set<number>();
    const fresh = (): string => {
      let index = pick(plugins.length);
      while (used.has(index)) index = (index + 1) % plugins.length;
      used.add(index);
      return plugins[index]!;
    };
    // Vary the counts around the average so sites differ, keeping the fleet-wide mean.
    const pendingCount = Math.max(0, options.pendingPerSite + pick(5) - 2);
    for (let i = 0; i < pendingCount; i++) {
      const major = 1 + pick(5);
      const minor = pick(10);
      const from = `${major}.${minor}.${pick(10)}`;
      const roll = random();
      const to =
        roll < 0.6
          ? `${major}.${minor}.${pick(10) + 10}`
          : roll < 0.9
            ? `${major}.${minor + 1}`
            : `${major + 1}.0`;
      if (i === 0 && pick(4) === 0) {
        pending.push({
          siteId: id,
          kind: 'core',
          slug: 'wordpress',
          name: 'WordPress',
          from: '6.4.1',
          to: '6.5',
        });
        continue;
      }
      const slug = fresh();
      pending.push({ siteId: id, kind: 'plugin', slug, name: `Plugin ${slug.split('/')[0]}`, from, to });
    }
    const ignoredCount = Math.max(0, options.ignoredPerSite + pick(3) - 1);
    for (let i = 0; i < ignoredCount; i++) {
      ignores.push({ siteId: id, kind: 'plugin', slug: fresh(), versions: 'all', origin: 'site' });
    }
  }
  return {
    dashboardUrl: 'https://dashboard.fleet.test/',
    sites,
    pending,
    ignores,
    unreadable: [],
    capabilities: {
      surface: 'abilities',
      canUnignore: true,
      canIgnore: true,
      canIgnoreCore: true,
      queueThreshold: 200,
    },
  };
}

/** A realistic desired state: shared ignores, a minor policy for plugins, core patch, a hold. */
export function benchDesiredState(): DesiredState {
  const all = { include: [{ type: 'all' as const }], exclude: [] };
  const at = (line: number) => ({ file: 'svc-gitops.yaml', line, col: 1, path: '/' });
  return {
    version: 1,
    sites: all,
    ignoreScope: 'report',
    ignores: [
      {
        selection: all,
        core: false,
        plugins: ['plugin-1/plugin-1.php', 'plugin-2/plugin-2.php'],
        themes: [],
        source: at(5),
      },
    ],
    policies: [
      {
        name: 'plugins-minor',
        selection: all,
        kinds: ['plugin', 'theme', 'translation'],
        include: [],
        exclude: [],
        maxLevel: 'minor',
        source: at(9),
      },
      {
        name: 'core-patch',
        selection: all,
        kinds: ['core'],
        include: [],
        exclude: [],
        maxLevel: 'patch',
        source: at(14),
      },
    ],
    holds: [{ selection: all, kind: 'plugin', slug: 'plugin-3*', maxVersion: '3.5', source: at(19) }],
    waves: [
      {
        name: 'canary',
        selection: { include: [{ type: 'glob', pattern: 'site1?.fleet.test' }], exclude: [] },
        maxFailures: 0,
      },
    ],
    approval: { maxSitesWithoutApproval: 500, coreNeedsApproval: true, majorNeedsApproval: true },
    files: [{ path: 'svc-gitops.yaml', sha256: '0'.repeat(64) }],
    digest: `sha256:${'0'.repeat(64)}`,
  };
}
