import { SvcError } from '../../errors.js';
import type { Connection } from '../connection.js';
import { statusFailure } from '../transport/status.js';
import { asList, isObject, type Json, own } from '../wire/json.js';

/** What the catalogue says about one input property (only the parts the client acts on). */
export interface InputProperty {
  maximum?: number;
}

export interface AbilityInfo {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Safe to repeat: read-only or annotated idempotent. */
  idempotent: boolean;
  /** Declared input keys; an ability declaring none accepts no input keys. */
  properties: Map<string, InputProperty>;
}

export type Catalogue = Map<string, AbilityInfo>;

const PER_PAGE = 100;

/**
 * Reads the abilities catalogue (all pages; the first page says how many there are) and keeps
 * this namespace's abilities. Returns undefined when the abilities route does not exist (404:
 * an older dashboard, or WordPress without the Abilities API), so the caller can fall back.
 */
export async function readCatalogue(conn: Connection, signal?: AbortSignal): Promise<Catalogue | undefined> {
  const first = await readPage(conn, 1, signal);
  if (first === undefined) return undefined;
  const catalogue: Catalogue = new Map();
  const add = (items: Json[]) => {
    for (const item of items) {
      const info = parseAbility(item, conn.namespace);
      if (info) catalogue.set(info.name, info);
    }
  };
  add(first.items);
  const rest = [];
  for (let page = 2; page <= first.totalPages; page++) rest.push(readPage(conn, page, signal));
  for (const page of await Promise.all(rest)) {
    if (page === undefined)
      throw new SvcError('INCOMPLETE_READ', 'the abilities catalogue vanished while paging');
    add(page.items);
  }
  return catalogue;
}

async function readPage(
  conn: Connection,
  page: number,
  signal: AbortSignal | undefined,
): Promise<{ items: Json[]; totalPages: number } | undefined> {
  const path = `${conn.abilitiesBase}/abilities`;
  const res = await conn.transport.send({
    method: 'GET',
    path,
    query: `per_page=${PER_PAGE}&page=${page}`,
    headers: conn.abilityAuth.headers,
    retry: true,
    signal,
  });
  const ctx = {
    method: 'GET',
    path,
    what: 'abilities catalogue',
    surface: 'abilities',
    auth: conn.abilityAuth.kind,
    secrets: conn.secrets,
  } as const;
  if (res.status === 404 && page === 1) return undefined;
  if (res.status < 200 || res.status >= 300) throw statusFailure(res, ctx);
  const items = asList(res.body);
  if (!items) {
    throw new SvcError('BAD_RESPONSE', 'abilities catalogue: the body should be a list of abilities', {
      details: { path },
    });
  }
  const header = res.headers['x-wp-totalpages'];
  const totalPages = Number(Array.isArray(header) ? header[0] : header);
  return { items, totalPages: Number.isInteger(totalPages) && totalPages > 0 ? totalPages : 1 };
}

/** One catalogue item, or undefined when it is not one of this namespace's abilities. */
function parseAbility(item: Json, namespace: string): AbilityInfo | undefined {
  if (!isObject(item)) return undefined;
  const name = own(item, 'name');
  if (typeof name !== 'string' || !name.startsWith(`${namespace}/`)) return undefined;
  const meta = own(item, 'meta');
  const annotations = isObject(meta) ? own(meta, 'annotations') : undefined;
  const flag = (key: string) => isObject(annotations) && truthy(own(annotations, key));
  const readonly = flag('readonly');
  const destructive = flag('destructive');
  const idempotent = flag('idempotent');
  const method = readonly ? 'GET' : destructive && idempotent ? 'DELETE' : 'POST';
  return {
    name,
    method,
    idempotent: readonly || idempotent,
    properties: parseProperties(own(item, 'input_schema')),
  };
}

function truthy(value: Json | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

function parseProperties(schema: Json | undefined): Map<string, InputProperty> {
  const properties = new Map<string, InputProperty>();
  const declared = isObject(schema) ? own(schema, 'properties') : undefined;
  if (!isObject(declared)) return properties;
  for (const [key, value] of Object.entries(declared)) {
    const maximum = isObject(value) ? own(value, 'maximum') : undefined;
    properties.set(key, typeof maximum === 'number' ? { maximum } : {});
  }
  return properties;
}
