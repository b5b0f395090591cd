import { displayName } from './fleet-names.js';
import { isObject, onlyKeys, type Reader } from './fleet-parse-items.js';
import type {
  FleetApiKey,
  FleetIgnore,
  FleetSite,
  FleetUser,
  GlobalIgnores,
  IgnoredVersions,
} from './fleet-types.js';

/** `true` (all versions) or a list of versions. */
function readVersions(reader: Reader, raw: unknown, path: Array<string | number>): IgnoredVersions {
  if (raw === true) return 'all';
  if (
    Array.isArray(raw) &&
    raw.length > 0 &&
    raw.every((v) => typeof v === 'string' || typeof v === 'number')
  ) {
    return raw.map(String);
  }
  return reader.fail(path, 'an ignore must be `true` (all versions) or a non-empty list of versions');
}

/**
 * A list of slugs (all versions) or a map `slug: true | [versions]`. `nameOf` gives the stored
 * Name: the slug for per-site ignores (as the abilities store them), the display name for the
 * global lists (only the dashboard UI writes those, and it stores the plugin's own name).
 */
function readIgnoreList(
  reader: Reader,
  raw: unknown,
  path: Array<string | number>,
  nameOf: (slug: string) => string = (slug) => slug,
): FleetIgnore[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) {
    return raw.map((slug, index) => {
      if (typeof slug !== 'string') return reader.fail([...path, index], 'an ignored slug must be a string');
      return { slug, name: nameOf(slug), versions: 'all' as const };
    });
  }
  if (!isObject(raw))
    return reader.fail(path, 'ignores must be a list of slugs or a map of slug to versions');
  return Object.entries(raw).map(([slug, value]) => ({
    slug,
    name: nameOf(slug),
    versions: readVersions(reader, value, [...path, slug]),
  }));
}

export function readSiteIgnores(
  reader: Reader,
  raw: Record<string, unknown>,
  path: Array<string | number>,
  site: FleetSite,
): void {
  const ignores = raw.ignores;
  if (ignores !== undefined && ignores !== null) {
    if (!isObject(ignores))
      reader.fail([...path, 'ignores'], '`ignores` must be a mapping with core, plugins, themes');
    const map = ignores as Record<string, unknown>;
    onlyKeys(reader, map, [...path, 'ignores'], ['core', 'plugins', 'themes']);
    if (map.core !== undefined && map.core !== false)
      site.ignores.core = readVersions(reader, map.core, [...path, 'ignores', 'core']);
    site.ignores.plugins = readIgnoreList(reader, map.plugins, [...path, 'ignores', 'plugins']);
    site.ignores.themes = readIgnoreList(reader, map.themes, [...path, 'ignores', 'themes']);
  }
  const flags = raw.ignore_flags ?? [];
  if (!Array.isArray(flags))
    reader.fail([...path, 'ignore_flags'], '`ignore_flags` must be a list of core, plugins, themes');
  flags.forEach((flag, index) => {
    if (flag !== 'core' && flag !== 'plugins' && flag !== 'themes') {
      reader.fail([...path, 'ignore_flags', index], '`ignore_flags` entries must be core, plugins or themes');
    }
    site.flags[flag as 'core' | 'plugins' | 'themes'] = true;
  });
  const fail = raw.fail ?? [];
  if (!Array.isArray(fail))
    reader.fail([...path, 'fail'], '`fail` must be a list like ["plugin:akismet/akismet.php"]');
  site.failUpdates = fail.map((entry, index) => {
    if (typeof entry !== 'string' || !/^(core|plugin|theme|translation):.+$/.test(entry)) {
      return reader.fail(
        [...path, 'fail', index],
        '`fail` entries look like plugin:<slug>, theme:<slug>, core:wordpress',
      );
    }
    return entry;
  });
}

export function readGlobalIgnores(reader: Reader, raw: unknown): GlobalIgnores {
  const result: GlobalIgnores = { core: null, plugins: [], themes: [] };
  if (raw === undefined || raw === null) return result;
  if (!isObject(raw))
    return reader.fail(['global_ignores'], '`global_ignores` must be a mapping with core, plugins, themes');
  onlyKeys(reader, raw, ['global_ignores'], ['core', 'plugins', 'themes']);
  if (raw.core !== undefined && raw.core !== false)
    result.core = readVersions(reader, raw.core, ['global_ignores', 'core']);
  result.plugins = readIgnoreList(reader, raw.plugins, ['global_ignores', 'plugins'], displayName);
  result.themes = readIgnoreList(reader, raw.themes, ['global_ignores', 'themes'], displayName);
  return result;
}

const ROLES = ['administrator', 'editor', 'subscriber'];
const PERMISSIONS = ['read', 'write', 'delete', 'read_write'];

export function readUsersAndKeys(
  reader: Reader,
  root: Record<string, unknown>,
): { users: FleetUser[]; apiKeys: FleetApiKey[] } {
  const rawUsers = root.users ?? [];
  const rawKeys = root.api_keys ?? [];
  if (!Array.isArray(rawUsers)) return reader.fail(['users'], '`users` must be a list');
  if (!Array.isArray(rawKeys)) return reader.fail(['api_keys'], '`api_keys` must be a list');
  const users = rawUsers.map((u, i): FleetUser => {
    if (!isObject(u))
      return reader.fail(['users', i], 'a user is a mapping {username, application_password, role}');
    onlyKeys(reader, u, ['users', i], ['username', 'application_password', 'role', 'sites']);
    if (typeof u.username !== 'string' || typeof u.application_password !== 'string') {
      return reader.fail(['users', i], 'a user needs string `username` and `application_password`');
    }
    const role = u.role ?? 'administrator';
    if (typeof role !== 'string' || !ROLES.includes(role))
      return reader.fail(['users', i, 'role'], `\`role\` must be one of ${ROLES.join(', ')}`);
    const user: FleetUser = {
      username: u.username,
      applicationPassword: u.application_password,
      role: role as FleetUser['role'],
    };
    if (u.sites !== undefined) {
      if (!Array.isArray(u.sites) || !u.sites.every(Number.isInteger))
        return reader.fail(['users', i, 'sites'], '`sites` must be a list of site ids');
      user.sites = u.sites as number[];
    }
    return user;
  });
  const apiKeys = rawKeys.map((k, i): FleetApiKey => {
    if (!isObject(k) || typeof k.token !== 'string' || !k.token.includes('==')) {
      return reader.fail(['api_keys', i], 'an API key is a mapping {token: "<secret>==<key>", permission}');
    }
    const permission = k.permission ?? 'read_write';
    if (typeof permission !== 'string' || !PERMISSIONS.includes(permission)) {
      return reader.fail(
        ['api_keys', i, 'permission'],
        `\`permission\` must be one of ${PERMISSIONS.join(', ')}`,
      );
    }
    return { token: k.token, permission: permission as FleetApiKey['permission'] };
  });
  return { users, apiKeys };
}
