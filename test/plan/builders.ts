/**
 * Builders for planner inputs: small, explicit DesiredState and LiveState values with
 * defaults that select nothing surprising. Every test and golden case builds from these.
 */
import type {
  DashboardCapabilities,
  DesiredState,
  Hold,
  IgnorableKind,
  IgnoreRule,
  ItemKind,
  LiveIgnore,
  LiveState,
  PendingUpdate,
  Site,
  SiteMatcher,
  SiteSelection,
  SourceRef,
  UpdatePolicy,
  Wave,
} from '../../src/types.js';

export const NOW = new Date('2026-03-01T12:00:00.000Z');
export const PLAN_OPTIONS = { now: NOW, lifetimeMinutes: 60 } as const;

export function source(line: number, path = '/'): SourceRef {
  return { file: 'svc-gitops.yaml', line, col: 1, path };
}

export function select(include: SiteMatcher[], exclude: SiteMatcher[] = []): SiteSelection {
  return { include, exclude };
}
export const allSites = (): SiteSelection => select([{ type: 'all' }]);
export const siteIds = (...ids: number[]): SiteSelection =>
  select(ids.map((id) => ({ type: 'id' as const, id })));
export const siteGlob = (pattern: string): SiteSelection => select([{ type: 'glob', pattern }]);

export function site(id: number, overrides: Partial<Site> = {}): Site {
  return {
    id,
    url: `https://site${id}.example.test/`,
    name: `site${id}.example.test`,
    status: 'connected',
    ...overrides,
  };
}

export function update(
  siteId: number,
  kind: ItemKind,
  slug: string,
  from: string,
  to: string,
  name = '',
): PendingUpdate {
  return { siteId, kind, slug, name: name || (kind === 'core' ? 'WordPress' : slug), from, to };
}

export function ignored(
  siteId: number,
  kind: IgnorableKind,
  slug: string,
  options: Partial<Pick<LiveIgnore, 'versions' | 'origin'>> = {},
): LiveIgnore {
  return { siteId, kind, slug, versions: options.versions ?? 'all', origin: options.origin ?? 'site' };
}

export const ABILITIES: DashboardCapabilities = {
  surface: 'abilities',
  canUnignore: true,
  canIgnore: true,
  canIgnoreCore: true,
  queueThreshold: 200,
};
export const REST: DashboardCapabilities = {
  surface: 'rest',
  canUnignore: false,
  canIgnore: false,
  canIgnoreCore: false,
  queueThreshold: 200,
};

export function liveState(partial: Partial<LiveState> = {}): LiveState {
  return {
    dashboardUrl: 'https://dashboard.example.test/',
    sites: [],
    pending: [],
    ignores: [],
    unreadable: [],
    capabilities: ABILITIES,
    ...partial,
  };
}

export function policy(partial: Partial<UpdatePolicy> & Pick<UpdatePolicy, 'name'>): UpdatePolicy {
  return {
    selection: allSites(),
    kinds: ['plugin', 'theme', 'translation'],
    include: [],
    exclude: [],
    maxLevel: 'minor',
    source: source(20, '/policies/0'),
    ...partial,
  };
}

export function hold(partial: Partial<Hold> & Pick<Hold, 'kind' | 'slug'>): Hold {
  return { selection: allSites(), source: source(40, '/holds/0'), ...partial };
}

export function ignoreRule(partial: Partial<IgnoreRule> = {}): IgnoreRule {
  return {
    selection: allSites(),
    core: false,
    plugins: [],
    themes: [],
    source: source(10, '/ignores/0'),
    ...partial,
  };
}

export function wave(name: string, selection: SiteSelection, maxFailures = 0): Wave {
  return { name, selection, maxFailures };
}

export function desiredState(partial: Partial<DesiredState> = {}): DesiredState {
  return {
    version: 1,
    sites: allSites(),
    ignoreScope: 'report',
    ignores: [],
    policies: [],
    holds: [],
    waves: [],
    approval: { coreNeedsApproval: false, majorNeedsApproval: false },
    files: [{ path: 'svc-gitops.yaml', sha256: 'a'.repeat(64) }],
    digest: 'sha256:' + 'd'.repeat(64),
    ...partial,
  };
}

export { type FleetOptions, generateFleet } from '../../scripts/bench/fixtures.js';
