import { readFile } from 'node:fs/promises';
import { isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { displayName } from './fleet-names.js';
import { GroupNames } from './fleet-parse-groups.js';
import { readGlobalIgnores, readSiteIgnores, readUsersAndKeys } from './fleet-parse-ignores.js';
import {
  isObject,
  onlyKeys,
  type Reader,
  readItems,
  readTranslations,
  versionMove,
} from './fleet-parse-items.js';
import { emptySite, type Fleet, type FleetSite } from './fleet-types.js';

/** Bad fleet input, located in its file. The message names `file:line` and what is wrong. */
export class FleetError extends Error {
  readonly file: string;
  readonly line: number;
  constructor(file: string, line: number, what: string) {
    super(`${file}:${line}: ${what}`);
    this.name = 'FleetError';
    this.file = file;
    this.line = line;
  }
}

const MAX_FLEET_BYTES = 64 * 1024 * 1024;

/**
 * Parses a fleet file (format in examples/sandbox/README.md). Unknown keys, wrong types and
 * duplicate site IDs or URLs are errors naming the line; nothing is silently dropped. A site
 * marked `shares_url: true` may repeat an earlier site's URL, as a dashboard with a site added
 * twice lists it.
 */
export function parseFleet(yamlText: string, fileName = 'fleet.yaml'): Fleet {
  if (yamlText.length > MAX_FLEET_BYTES) throw new FleetError(fileName, 1, 'fleet file is too large');
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    throw new FleetError(
      fileName,
      lineCounter.linePos(first.pos[0]).line,
      first.message.split('\n')[0] ?? '',
    );
  }
  // Versions like `1.10` must keep their text: a decimal number is read back as written.
  visit(doc, {
    Scalar(_key, node) {
      const source = (node as { source?: unknown }).source;
      if (
        isScalar(node) &&
        typeof node.value === 'number' &&
        typeof source === 'string' &&
        source.includes('.')
      )
        node.value = source;
    },
  });
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new FleetError(fileName, 1, error instanceof Error ? error.message : String(error));
  }
  const lineOf = (path: Array<string | number>): number => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lineCounter.linePos(node.range[0]).line;
    }
    return 1;
  };
  const fail = (path: Array<string | number>, what: string): never => {
    throw new FleetError(fileName, lineOf(path), what);
  };
  const reader: Reader = { fail };
  if (!isObject(root)) return fail([], 'a fleet file must be a mapping with a `sites` list');
  onlyKeys(reader, root, [], ['sites', 'global_ignores', 'users', 'api_keys']);
  if (!Array.isArray(root.sites)) return fail(['sites'], '`sites` must be a list of sites');
  const groups = new GroupNames();
  const sites = root.sites.map((raw, index) => readSite(reader, raw, ['sites', index], index + 1, groups));
  const sharing = root.sites.map((raw) => isObject(raw) && raw.shares_url === true);
  checkUnique(reader, sites, sharing);
  const { users, apiKeys } = readUsersAndKeys(reader, root);
  const records = groups.result();
  return {
    sites,
    users,
    apiKeys,
    globalIgnores: readGlobalIgnores(reader, root.global_ignores),
    ...(records ? { records } : {}),
  };
}

export async function loadFleet(path: string): Promise<Fleet> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new FleetError(path, 1, `cannot read the fleet file (${code})`);
  }
  return parseFleet(text, path);
}

const SITE_KEYS = [
  'id',
  'url',
  'name',
  'status',
  'connector',
  'client_id',
  'client',
  'tags',
  'core',
  'plugins',
  'themes',
];
const MORE_SITE_KEYS = ['translations', 'ignores', 'ignore_flags', 'fail', 'shares_url'];
const STATUSES = ['connected', 'offline', 'suspended', 'sync-error'];

function readSite(
  reader: Reader,
  raw: unknown,
  path: Array<string | number>,
  position: number,
  groups: GroupNames,
): FleetSite {
  if (!isObject(raw)) return reader.fail(path, 'each site must be a mapping with at least `url`');
  onlyKeys(reader, raw, path, [...SITE_KEYS, ...MORE_SITE_KEYS]);
  if (typeof raw.url !== 'string' || !/^https?:\/\/[^/\s]+/.test(raw.url)) {
    return reader.fail([...path, 'url'], '`url` must be an http(s) URL such as https://shop.example.test/');
  }
  if (raw.shares_url !== undefined && typeof raw.shares_url !== 'boolean')
    return reader.fail([...path, 'shares_url'], '`shares_url` must be true or false');
  const url = raw.url.endsWith('/') ? raw.url : `${raw.url}/`;
  const id = raw.id ?? position;
  if (!Number.isInteger(id) || (id as number) < 1)
    return reader.fail([...path, 'id'], '`id` must be a positive integer');
  const name = raw.name ?? url.replace(/^https?:\/\//, '').replace(/\/$/, '');
  if (typeof name !== 'string') return reader.fail([...path, 'name'], '`name` must be a string');
  const site = emptySite(id as number, url, name);
  const status = raw.status ?? 'connected';
  if (typeof status !== 'string' || !STATUSES.includes(status)) {
    return reader.fail([...path, 'status'], `\`status\` must be one of ${STATUSES.join(', ')}`);
  }
  site.offline = status === 'offline';
  site.suspended = status === 'suspended';
  site.syncErrors = status === 'sync-error';
  if (raw.connector !== undefined) site.connectorVersion = String(raw.connector);
  if (raw.client_id !== undefined) {
    if (!Number.isInteger(raw.client_id))
      return reader.fail([...path, 'client_id'], '`client_id` must be an integer');
    site.clientId = raw.client_id as number;
  }
  groups.readSite(reader, raw, path, site);
  if (raw.core !== undefined) {
    const move = versionMove(reader, raw.core, [...path, 'core']);
    site.core = { current: move.version, new: move.update };
  }
  site.plugins = readItems(reader, raw.plugins, [...path, 'plugins'], 'plugin', displayName);
  site.themes = readItems(reader, raw.themes, [...path, 'themes'], 'theme', displayName);
  site.translations = readTranslations(reader, raw.translations, [...path, 'translations'], displayName);
  readSiteIgnores(reader, raw, path, site);
  return site;
}

function checkUnique(reader: Reader, sites: FleetSite[], sharing: readonly boolean[]): void {
  const ids = new Set<number>();
  const urls = new Set<string>();
  sites.forEach((site, index) => {
    if (ids.has(site.id)) reader.fail(['sites', index, 'id'], `duplicate site id ${site.id}`);
    const key = site.url.toLowerCase();
    if (urls.has(key) && !sharing[index])
      reader.fail(
        ['sites', index, 'url'],
        `duplicate site url ${site.url} (mark the site shares_url: true if meant)`,
      );
    ids.add(site.id);
    urls.add(key);
  });
}
