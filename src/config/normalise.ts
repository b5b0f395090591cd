import {
  CORE_SLUG,
  type HealthPath,
  type IgnorableKind,
  type IgnoreScope,
  type ItemKind,
  type VersionLevel,
} from '../types.js';
import type {
  FileState,
  Place,
  RawHealth,
  RawHold,
  RawIgnoreRule,
  RawItem,
  RawPolicy,
  RawSelection,
  RawWave,
  RawWindow,
  Segment,
  Valued,
} from './model.js';
import { securityOf } from './security.js';

/**
 * The keys the normaliser reads, per schema object. A test checks these against the schema's
 * `properties`, so a key added to the schema cannot be silently ignored here.
 */
export const HANDLED_KEYS = {
  document: ['version', 'groups', 'sites', 'ignores', 'updates', 'holds', 'rollout', 'approval', 'security'],
  security: ['feed', 'refresh_after', 'max_age', 'installed', 'bypass', 'approval'],
  securityApproval: ['max_sites', 'core', 'major'],
  feed: ['wordfence', 'url', 'file', 'format'],
  ignores: ['unmanaged', 'rules'],
  rollout: ['waves', 'health'],
  approval: ['max_sites', 'core', 'major'],
  selection: ['include', 'exclude'],
  ignoreRule: ['sites', 'core', 'plugins', 'themes', 'site_flags'],
  siteFlags: ['core', 'plugins', 'themes'],
  updatePolicy: ['name', 'sites', 'kinds', 'include', 'exclude', 'max', 'window', 'min_release_age'],
  hold: ['sites', 'core', 'plugin', 'theme', 'translation', 'pin', 'versions', 'reason'],
  wave: ['name', 'sites', 'max_failures', 'window', 'after', 'max_unhealthy', 'paths'],
  window: ['schedule', 'timezone'],
  waveAfter: ['wave', 'healthy_for'],
  health: ['status', 'response_time_factor', 'max_unhealthy', 'paths', 'timeout_seconds', 'budget_seconds'],
  healthPath: ['path', 'status', 'contains', 'not_contains', 'cache_bust'],
} as const;

/** YAML kind names (plural, as people say them) to the domain's item kinds. */
export const KIND_NAMES: Record<string, ItemKind> = {
  core: 'core',
  plugins: 'plugin',
  themes: 'theme',
  translations: 'translation',
};
const ALL_KINDS: ItemKind[] = ['core', 'plugin', 'theme', 'translation'];
const HOLD_KINDS: Array<[key: 'core' | 'plugin' | 'theme' | 'translation', kind: ItemKind]> = [
  ['core', 'core'],
  ['plugin', 'plugin'],
  ['theme', 'theme'],
  ['translation', 'translation'],
];

type Obj = Record<string, unknown>;

/**
 * Turns one file's schema-valid data into a FileState. It relies on the schema having passed
 * (shapes and enums are not re-checked here) and keeps every element's place for diagnostics.
 */
export function normaliseFile(file: string, data: Obj): FileState {
  const at = (...path: Segment[]): Place => ({ file, path });
  const state: FileState = {
    file,
    version: { value: 1, place: at('version') },
    groups: Object.entries((data.groups ?? {}) as Record<string, unknown[]>).map(([name, items]) => ({
      name,
      items: items.map((item, i) => ({ item: parseSiteItem(item), place: at('groups', name, i) })),
      place: at('groups', name),
    })),
    ignoreRules: [],
    policies: [],
    holds: [],
    approval: {},
  };
  if (data.sites !== undefined) state.sites = selection(data.sites, at('sites'));
  const ignores = (data.ignores ?? {}) as Obj;
  if (ignores.unmanaged !== undefined) {
    state.unmanaged = { value: ignores.unmanaged as IgnoreScope, place: at('ignores', 'unmanaged') };
  }
  state.ignoreRules = ((ignores.rules ?? []) as Obj[]).map((rule, i) =>
    ignoreRule(rule, at('ignores', 'rules', i)),
  );
  state.policies = ((data.updates ?? []) as Obj[]).map((policy, i) => updatePolicy(policy, at('updates', i)));
  state.holds = ((data.holds ?? []) as Obj[]).map((hold, i) => holdOf(hold, at('holds', i)));
  const rollout = (data.rollout ?? {}) as Obj;
  const waves = rollout.waves as Obj[] | undefined;
  if (rollout.health !== undefined) {
    state.health = valued(healthOf(rollout.health as Obj), at('rollout', 'health'));
  }
  if (waves !== undefined) {
    state.waves = {
      value: waves.map((w, i) => waveOf(w, at('rollout', 'waves', i))),
      place: at('rollout', 'waves'),
    };
  }
  if (data.security !== undefined) {
    state.security = valued(securityOf(file, data.security as Obj), at('security'));
  }
  const approval = (data.approval ?? {}) as Obj;
  if (approval.max_sites !== undefined)
    state.approval.maxSites = valued(approval.max_sites as number, at('approval', 'max_sites'));
  if (approval.core !== undefined)
    state.approval.core = valued(approval.core as boolean, at('approval', 'core'));
  if (approval.major !== undefined)
    state.approval.major = valued(approval.major as boolean, at('approval', 'major'));
  return state;
}

/** Site item text (or number) to a matcher; the schema has already checked its form. */
export function parseSiteItem(item: unknown): RawItem {
  if (typeof item === 'number') return { type: 'id', id: item };
  const text = String(item);
  if (text === 'all') return { type: 'all' };
  if (text.startsWith('group:')) return { type: 'group', name: text.slice('group:'.length) };
  if (text.startsWith('tag:')) return { type: 'tag', name: text.slice('tag:'.length) };
  if (text.startsWith('client:')) return { type: 'client', name: text.slice('client:'.length) };
  if (/^[0-9]+$/.test(text)) return { type: 'id', id: Number(text) };
  if (/[*?]/.test(text)) return { type: 'glob', pattern: text };
  return { type: 'domain', domain: text };
}

function selection(value: unknown, place: Place): RawSelection {
  const items = (list: unknown, sub: Segment[]) =>
    ((list ?? []) as unknown[]).map((item, i) => ({
      item: parseSiteItem(item),
      place: { file: place.file, path: [...place.path, ...sub, i] },
    }));
  if (Array.isArray(value)) return { include: items(value, []), exclude: [], place };
  const obj = value as Obj;
  return { include: items(obj.include, ['include']), exclude: items(obj.exclude, ['exclude']), place };
}

function strings(value: unknown, place: Place, key: string): Valued<string>[] {
  return ((value ?? []) as string[]).map((s, i) => ({
    value: s,
    place: { file: place.file, path: [...place.path, key, i] },
  }));
}

function ignoreRule(rule: Obj, place: Place): RawIgnoreRule {
  return {
    sites: selection(rule.sites, sub(place, 'sites')),
    core: rule.core === true,
    plugins: strings(rule.plugins, place, 'plugins'),
    themes: strings(rule.themes, place, 'themes'),
    ...(rule.site_flags === undefined ? {} : { siteFlags: siteFlags(rule.site_flags as Obj) }),
    place,
  };
}

/** `site_flags: {core?, plugins?, themes?}` (booleans; the schema checked them). */
function siteFlags(flags: Obj): Partial<Record<IgnorableKind, boolean>> {
  const out: Partial<Record<IgnorableKind, boolean>> = {};
  for (const [key, kind] of [
    ['core', 'core'],
    ['plugins', 'plugin'],
    ['themes', 'theme'],
  ] as const) {
    if (typeof flags[key] === 'boolean') out[kind] = flags[key] as boolean;
  }
  return out;
}

function updatePolicy(policy: Obj, place: Place): RawPolicy {
  const kinds =
    policy.kinds === undefined ? ALL_KINDS : (policy.kinds as string[]).map((k) => KIND_NAMES[k]!);
  return {
    name: policy.name as string,
    sites: selection(policy.sites, sub(place, 'sites')),
    kinds,
    include: strings(policy.include, place, 'include'),
    exclude: strings(policy.exclude, place, 'exclude'),
    maxLevel: policy.max as VersionLevel,
    place,
    ...(policy.window === undefined ? {} : { window: windowOf(policy.window as Obj, sub(place, 'window')) }),
    ...(policy.min_release_age === undefined
      ? {}
      : { minReleaseAge: valued(policy.min_release_age as string, sub(place, 'min_release_age')) }),
  };
}

function windowOf(window: Obj, place: Place): RawWindow {
  const schedule = Array.isArray(window.schedule)
    ? strings(window.schedule, place, 'schedule')
    : [valued(window.schedule as string, sub(place, 'schedule'))];
  return { schedule, timezone: valued(window.timezone as string, sub(place, 'timezone')), place };
}

function healthOf(health: Obj): RawHealth {
  const out: RawHealth = {
    status: (health.status as string[] | undefined) ?? ['2xx', '3xx'],
    maxUnhealthy: (health.max_unhealthy as number | undefined) ?? 0,
  };
  if (typeof health.response_time_factor === 'number') out.responseTimeFactor = health.response_time_factor;
  if (Array.isArray(health.paths)) out.paths = (health.paths as Obj[]).map(healthPathOf);
  if (typeof health.timeout_seconds === 'number') out.pathTimeoutMs = health.timeout_seconds * 1000;
  if (typeof health.budget_seconds === 'number') out.pathBudgetMs = health.budget_seconds * 1000;
  return out;
}

function healthPathOf(page: Obj): HealthPath {
  const status =
    page.status === undefined ? ['2xx'] : Array.isArray(page.status) ? page.status : [page.status];
  const out: HealthPath = {
    path: page.path as string,
    status: status.map(String),
    cacheBust: page.cache_bust === true,
  };
  if (typeof page.contains === 'string') out.contains = page.contains;
  if (typeof page.not_contains === 'string') out.notContains = page.not_contains;
  return out;
}

function holdOf(hold: Obj, place: Place): RawHold {
  const [key, kind] = HOLD_KINDS.find(([k]) => hold[k] !== undefined) ?? ['core', 'core'];
  const out: RawHold = {
    sites: selection(hold.sites, sub(place, 'sites')),
    kind,
    slug: key === 'core' ? CORE_SLUG : String(hold[key]),
    place,
  };
  if (typeof hold.pin === 'string') out.pin = hold.pin;
  if (Array.isArray(hold.versions)) out.versions = hold.versions.map(String);
  if (typeof hold.reason === 'string') out.reason = hold.reason;
  return out;
}

function waveOf(wave: Obj, place: Place): RawWave {
  return {
    name: wave.name as string,
    sites: selection(wave.sites, sub(place, 'sites')),
    maxFailures: (wave.max_failures as number | undefined) ?? 0,
    place,
    ...(wave.window === undefined ? {} : { window: windowOf(wave.window as Obj, sub(place, 'window')) }),
    ...(wave.after === undefined ? {} : { after: afterOf(wave.after as Obj, sub(place, 'after')) }),
    ...(typeof wave.max_unhealthy === 'number' ? { maxUnhealthy: wave.max_unhealthy } : {}),
    ...(Array.isArray(wave.paths) ? { paths: (wave.paths as Obj[]).map(healthPathOf) } : {}),
  };
}

function afterOf(after: Obj, place: Place) {
  return { wave: valued(after.wave as string, sub(place, 'wave')), healthyFor: after.healthy_for as string };
}

function sub(place: Place, ...more: Segment[]): Place {
  return { file: place.file, path: [...place.path, ...more] };
}

function valued<T>(value: T, place: Place): Valued<T> {
  return { value, place };
}
