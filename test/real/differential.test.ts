/**
 * The differential test: the same requests to the real dashboard and to the sandbox (profile
 * compat-6.1, namespace mainwp, the whole shipped catalogue, a fleet mirroring the rig),
 * compared by status, error code, paging and Allow headers and JSON shape (types and keys, not
 * values). Every difference must be listed in LISTED_DIFFERENCES with its reason (and in
 * docs/dashboard-reading.md); an unlisted one fails the test, and so does a listed one that is
 * no longer seen (the list stays true).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { rigFleet } from '../helpers/rig-fleet.js';
import { LISTED_DIFFERENCES } from './differences.js';
import { harness, realEnv, skipReason } from './harness.js';
import { shapeDiff, shapeOf } from './shape.js';

interface Probe {
  name: string;
  surface: 'rest' | 'abilities';
  method?: string;
  /** After `/wp-json/mainwp/v2/` or `/wp-json/wp-abilities/v1/`. */
  path: string;
  anonymous?: boolean;
}

const run = (ability: string, query = '') => `abilities/mainwp/${ability}/run${query ? `?${query}` : ''}`;

const PROBES: Probe[] = [
  { name: 'catalogue', surface: 'abilities', path: 'abilities?per_page=100' },
  { name: 'catalogue item', surface: 'abilities', path: 'abilities/mainwp/list-updates-v1' },
  { name: 'categories', surface: 'abilities', path: 'categories' },
  { name: 'list-sites-v1', surface: 'abilities', path: run('list-sites-v1') },
  {
    name: 'list-sites-v1 available_update',
    surface: 'abilities',
    path: run('list-sites-v1', 'input[status]=available_update'),
  },
  { name: 'list-updates-v1 page', surface: 'abilities', path: run('list-updates-v1', 'input[per_page]=2') },
  { name: 'list-ignored-updates-v1', surface: 'abilities', path: run('list-ignored-updates-v1') },
  {
    name: 'list-ignored-updates-v1 paged (rejected)',
    surface: 'abilities',
    path: run('list-ignored-updates-v1', 'input[page]=1'),
  },
  {
    name: 'get-site-updates-v1',
    surface: 'abilities',
    path: run('get-site-updates-v1', 'input[site_id_or_domain]=1'),
  },
  {
    name: 'get-site-updates-v1 unknown site',
    surface: 'abilities',
    path: run('get-site-updates-v1', 'input[site_id_or_domain]=999'),
  },
  { name: 'list-updates-v1 by POST', surface: 'abilities', method: 'POST', path: run('list-updates-v1') },
  {
    name: 'get-batch-job-status-v1 bad id',
    surface: 'abilities',
    path: run('get-batch-job-status-v1', 'input[job_id]=nope'),
  },
  { name: 'run anonymous', surface: 'abilities', path: run('list-updates-v1'), anonymous: true },
  { name: 'REST sites', surface: 'rest', path: 'sites' },
  { name: 'REST sites page 2', surface: 'rest', path: 'sites?page=2&per_page=2' },
  { name: 'REST site', surface: 'rest', path: 'sites/1' },
  { name: 'REST unknown site', surface: 'rest', path: 'sites/999' },
  { name: 'REST site edit', surface: 'rest', method: 'POST', path: 'sites/1/edit?ignore_core_updates=0' },
  { name: 'REST updates', surface: 'rest', path: 'updates' },
  { name: 'REST updates type=all', surface: 'rest', path: 'updates?type=all' },
  { name: 'REST site updates', surface: 'rest', path: 'updates/1' },
  { name: 'REST ignored', surface: 'rest', path: 'updates/ignored' },
  { name: 'REST site ignored', surface: 'rest', path: 'updates/1/ignored' },
  { name: 'REST no route', surface: 'rest', path: 'nothing-here' },
  { name: 'REST anonymous', surface: 'rest', path: 'sites', anonymous: true },
];

const HEADERS = ['x-wp-total', 'x-wp-totalpages', 'allow'];

interface Seen {
  status: number;
  code: unknown;
  headers: Record<string, string | null>;
  body: unknown;
}

interface Target {
  url: string;
  basic: string;
  bearer: string;
}

async function probe(target: Target, p: Probe): Promise<Seen> {
  const prefix = p.surface === 'rest' ? '/wp-json/mainwp/v2/' : '/wp-json/wp-abilities/v1/';
  const headers: Record<string, string> = {};
  if (!p.anonymous) headers.authorization = p.surface === 'rest' ? target.bearer : target.basic;
  const res = await fetch(`${target.url}${prefix}${p.path}`, { method: p.method ?? 'GET', headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = `not JSON: ${text.slice(0, 80)}`;
  }
  const code =
    body && typeof body === 'object' && 'code' in body ? (body as { code: unknown }).code : undefined;
  return {
    status: res.status,
    code,
    headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)])),
    body,
  };
}

/**
 * The body with every `description` inside an ability's schemas removed: the sandbox writes
 * its own texts (the shipped catalogue document has none), and texts are values, not shape.
 */
function withoutSchemaTexts(value: unknown, inSchema = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutSchemaTexts(item, inSchema));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (inSchema && key === 'description') continue;
    out[key] = withoutSchemaTexts(item, inSchema || key === 'input_schema' || key === 'output_schema');
  }
  return out;
}

/** Every difference of one probe, one line each, prefixed with the probe's name. */
function differences(p: Probe, real: Seen, sandbox: Seen): string[] {
  const out: string[] = [];
  if (real.status !== sandbox.status) out.push(`status: real ${real.status}, sandbox ${sandbox.status}`);
  if (real.code !== sandbox.code)
    out.push(`code: real ${String(real.code)}, sandbox ${String(sandbox.code)}`);
  for (const h of HEADERS) {
    if (real.headers[h] !== sandbox.headers[h])
      out.push(`header ${h}: real ${String(real.headers[h])}, sandbox ${String(sandbox.headers[h])}`);
  }
  out.push(...shapeDiff(shapeOf(withoutSchemaTexts(real.body)), shapeOf(withoutSchemaTexts(sandbox.body))));
  return out.map((line) => `${p.name}: ${line}`);
}

describe.skipIf(skipReason())('differential: the real dashboard and the sandbox', () => {
  let sandbox: RunningSandbox;
  let real: Target;
  let fake: Target;
  const basic = (user: string, password: string) =>
    `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  beforeAll(async () => {
    harness(['restore'], 180);
    const env = realEnv();
    real = {
      url: env.SVC_URL as string,
      basic: basic(env.SVC_USER as string, env.SVC_APP_PASSWORD as string),
      bearer: `Bearer ${env.SVC_TOKEN}`,
    };
    const port = Number(new URL(real.url).port);
    sandbox = await startSandbox({
      fleet: rigFleet(port),
      namespace: 'mainwp',
      profile: 'compat-6.1',
      quirks: { fullShippedCatalogue: true },
    });
    fake = {
      url: sandbox.url,
      basic: basic(sandbox.credentials.username, sandbox.credentials.applicationPassword),
      bearer: `Bearer ${sandbox.credentials.token}`,
    };
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('differs only where docs/dashboard-reading.md says why', async () => {
    const seen: string[] = [];
    for (const p of PROBES) seen.push(...differences(p, await probe(real, p), await probe(fake, p)));
    const listed = (line: string) => LISTED_DIFFERENCES.some((d) => d.pattern.test(line));
    expect(
      seen.filter((line) => !listed(line)),
      'unlisted differences',
    ).toEqual([]);
    const stale = LISTED_DIFFERENCES.filter((d) => !seen.some((line) => d.pattern.test(line)));
    expect(
      stale.map((d) => d.pattern.source),
      'listed but not seen',
    ).toEqual([]);
  });

  it('serves the same 64 ability names', async () => {
    const names = async (t: Target) =>
      ((await probe(t, PROBES[0] as Probe)).body as Array<{ name: string }>).map((a) => a.name).sort();
    expect(await names(fake)).toEqual(await names(real));
  });
});
