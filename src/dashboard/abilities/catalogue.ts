import { SvcError } from '../../errors.js';
import type { Connection } from '../connection.js';
import { discoverFromCatalogue } from '../namespace.js';
import { statusFailure } from '../transport/status.js';
import { asList, isObject, type Json, own } from '../wire/json.js';

/** What the catalogue says about one input property (only the parts the client acts on). */
export interface InputProperty {
  maximum?: number;
}

export interface AbilityInfo {
  name: string;
  label: string;
  description: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The annotations as the catalogue sent them; `destructive` undefined when it sent none. */
  annotations: { readonly: boolean; destructive: boolean | undefined; idempotent: boolean };
  /** The ability's input schema as the catalogue sent it (for front ends that describe it). */
  inputSchema: Json | undefined;
  /** Safe to repeat: read-only or annotated idempotent. */
  idempotent: boolean;
  /** Declared input keys; an ability declaring none accepts no input keys. */
  properties: Map<string, InputProperty>;
}

export type Catalogue = Map<string, AbilityInfo>;

const PER_PAGE = 100;

/** 10,000 abilities: far beyond any catalogue; a larger page count is a hostile or broken header. */
const MAX_PAGES = 100;

/**
 * Reads the abilities catalogue (all pages; the first page says how many there are) and keeps
 * this namespace's abilities. Returns undefined when the abilities route does not exist (404:
 * an older dashboard, or WordPress without the Abilities API), so the caller can fall back.
 * The page count is believed only up to MAX_PAGES, every page but the last must be full, and
 * the items must add up to `X-WP-Total` when the dashboard sends it: a catalogue read short would
 * hide abilities and change how every later call is made.
 */
export async function readCatalogue(conn: Connection, signal?: AbortSignal): Promise<Catalogue | undefined> {
  const first = await readPage(conn, 1, signal);
  if (first === undefined) return undefined;
  const all: Json[] = [];
  const add = (items: Json[]) => {
    all.push(...items);
  };
  const pages = first.totalPages;
  if (pages > MAX_PAGES) {
    throw new SvcError(
      'BAD_RESPONSE',
      `abilities catalogue: the dashboard reports ${pages} pages of ${PER_PAGE}; svc-gitops reads at most ${MAX_PAGES}`,
      { hint: 'The X-WP-TotalPages header is implausible; check the dashboard or a proxy in front of it.' },
    );
  }
  const short = (items: readonly Json[], page: number) =>
    new SvcError(
      'INCOMPLETE_READ',
      `abilities catalogue: page ${page} of ${pages} has ${items.length} abilities, expected ${PER_PAGE}`,
      { hint: 'The dashboard changed while it was read, or dropped items; run again.' },
    );
  if (pages > 1 && first.items.length !== PER_PAGE) throw short(first.items, 1);
  add(first.items);
  let count = first.items.length;
  const rest = [];
  for (let page = 2; page <= pages; page++) rest.push(readPage(conn, page, signal));
  for (const [index, page] of (await Promise.all(rest)).entries()) {
    if (page === undefined)
      throw new SvcError('INCOMPLETE_READ', 'the abilities catalogue vanished while paging');
    if (index + 2 < pages && page.items.length !== PER_PAGE) throw short(page.items, index + 2);
    add(page.items);
    count += page.items.length;
  }
  if (first.total !== undefined && count !== first.total) {
    throw new SvcError(
      'INCOMPLETE_READ',
      `abilities catalogue: read ${count} abilities, but the dashboard reports ${first.total}`,
      { hint: 'The dashboard changed while it was read, or dropped items; run again.' },
    );
  }
  discoverFromCatalogue(
    conn,
    all
      .map((item) => (isObject(item) ? own(item, 'name') : undefined))
      .filter((n): n is string => typeof n === 'string'),
  );
  const catalogue: Catalogue = new Map();
  for (const item of all) {
    const info = parseAbility(item, conn.namespace);
    if (info) catalogue.set(info.name, info);
  }
  return catalogue;
}

/** A header's value as a non-negative integer, or undefined when absent or not one. */
function intHeader(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : undefined;
}

async function readPage(
  conn: Connection,
  page: number,
  signal: AbortSignal | undefined,
): Promise<{ items: Json[]; totalPages: number; total: number | undefined } | undefined> {
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
    url: conn.url,
    product: conn.product,
  } as const;
  if (res.status === 404 && page === 1) return undefined;
  if (res.status < 200 || res.status >= 300) throw statusFailure(res, ctx);
  const items = asList(res.body);
  if (!items) {
    throw new SvcError('BAD_RESPONSE', 'abilities catalogue: the body should be a list of abilities', {
      details: { path },
    });
  }
  const totalPages = intHeader(res.headers['x-wp-totalpages']);
  return {
    items,
    totalPages: totalPages !== undefined && totalPages > 0 ? totalPages : 1,
    total: intHeader(res.headers['x-wp-total']),
  };
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
  const declared = isObject(annotations) ? own(annotations, 'destructive') : undefined;
  const label = own(item, 'label');
  const description = own(item, 'description');
  return {
    name,
    label: typeof label === 'string' ? label : '',
    description: typeof description === 'string' ? description : '',
    method,
    annotations: { readonly, destructive: declared === undefined ? undefined : destructive, idempotent },
    inputSchema: own(item, 'input_schema'),
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
