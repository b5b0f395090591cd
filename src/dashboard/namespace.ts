import { SvcError } from '../errors.js';
import { settingVariable } from '../settings/types.js';
import { adoptNamespace, type Connection } from './connection.js';
import { asList, isObject, own } from './wire/json.js';

/** The ability whose namespace is the interface's: the one every read of pending updates needs. */
const MARKER = 'list-updates-v1';

/**
 * When the settings name no namespace, the catalogue decides: the one namespace that offers
 * `<ns>/list-updates-v1` (a MainWP dashboard: `mainwp`; the sandbox: its own). Several such
 * namespaces are an error naming them, as the choice is the user's; none leaves the default, and
 * the first ability call then says which ability is missing.
 */
export function discoverFromCatalogue(conn: Connection, abilityNames: readonly string[]): void {
  if (conn.namespaceConfigured) return;
  const offering = new Set<string>();
  for (const name of abilityNames) {
    const slash = name.indexOf('/');
    if (slash > 0 && name.slice(slash + 1) === MARKER) offering.add(name.slice(0, slash));
  }
  choose(conn, [...offering].sort(), `abilities offering ${MARKER}`);
}

/**
 * Without the abilities API (WordPress before 6.9, or its routes blocked), the REST index
 * (`GET /wp-json/`) lists the route namespaces: the one `<ns>/v2` besides WordPress's own `wp/v2`
 * is the interface's. An index that cannot be read leaves the default.
 */
export async function discoverFromRestIndex(conn: Connection, signal?: AbortSignal): Promise<void> {
  if (conn.namespaceConfigured) return;
  const res = await conn.transport.send({ method: 'GET', path: '/wp-json/', retry: true, signal });
  if (res.status < 200 || res.status >= 300 || !isObject(res.body)) return;
  const listed = asList(own(res.body, 'namespaces') ?? null) ?? [];
  const v2 = listed
    .filter((entry): entry is string => typeof entry === 'string')
    .map((entry) => /^([a-z][a-z0-9_-]{0,39})\/v2$/.exec(entry)?.[1])
    .filter((ns): ns is string => ns !== undefined && ns !== 'wp');
  choose(conn, [...new Set(v2)].sort(), 'REST namespaces with a v2');
}

function choose(conn: Connection, candidates: string[], what: string): void {
  if (candidates.length === 1) adoptNamespace(conn, candidates[0] as string);
  if (candidates.length <= 1) return;
  const variable = settingVariable('namespace', conn.product);
  throw new SvcError(
    'SETTINGS_INVALID',
    `the dashboard has several ${what}: ${candidates.join(', ')}; svc-gitops cannot choose`,
    { hint: `Set ${variable} to the one to manage, e.g. ${variable}=${candidates[0]}.` },
  );
}
