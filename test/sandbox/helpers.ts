import { readFileSync } from 'node:fs';
import { fetch } from 'undici';
import {
  type Fleet,
  parseFleet,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from '../../src/sandbox/index.js';

export const DEMO_FLEET_TEXT = readFileSync(
  new URL('../../examples/sandbox/demo-fleet.yaml', import.meta.url),
  'utf8',
);

export function demoFleet(): Fleet {
  return parseFleet(DEMO_FLEET_TEXT, 'demo-fleet.yaml');
}

/** A small fleet for precise assertions: an editor, a read-only key and three sites. */
export const SMALL_FLEET = `
users:
  - { username: editor, application_password: "edit EDIT edit EDIT edit EDIT", role: editor }
  - { username: scoped, application_password: "scop SCOP scop SCOP scop SCOP", role: administrator, sites: [1] }
api_keys:
  - { token: "cs_readonly==ck_readonly", permission: read }
global_ignores:
  themes: [astra]
sites:
  - id: 1
    url: https://one.example.test/
    core: 6.8.1 -> 6.8.3
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
      woocommerce/woocommerce.php: 9.8.5 -> 10.0.2
      classic-editor/classic-editor.php: 1.6.7
    themes:
      twentytwentyfive: 1.1 -> 1.2
      astra: 4.11.1 -> 4.11.3
    translations:
      - { slug: default, language: de_DE, version: 6.8.1 }
  - id: 2
    url: https://two.example.test/
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
      elementor/elementor.php: 3.29.2 -> 3.30.0
    ignores:
      plugins: [elementor/elementor.php]
    fail: [plugin:akismet/akismet.php]
  - id: 3
    url: https://three.example.test/
    status: offline
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
`;

export function smallFleet(): Fleet {
  return parseFleet(SMALL_FLEET, 'small.yaml');
}

export async function start(options: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  return startSandbox({ fleet: smallFleet(), ...options });
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** PHP bracket query form of an ability input: `input[types][]=plugins&input[page]=2`. */
export function bracketQuery(input: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const name = `input[${key}]`;
    if (Array.isArray(value))
      for (const item of value)
        parts.push(`${encodeURIComponent(`${name}[]`)}=${encodeURIComponent(String(item))}`);
    else parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}

export interface JsonResponse {
  status: number;
  headers: Headers | { get(name: string): string | null };
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests
  body: any;
}

async function json(response: Awaited<ReturnType<typeof fetch>>): Promise<JsonResponse> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/**
 * Calls against one sandbox, with its admin credentials unless `auth` says otherwise. The
 * credentials are read at call time: `sb` may be a handle whose sandbox starts later (sandboxPer).
 */
export function client(sb: Pick<RunningSandbox, 'url' | 'credentials'>, ns = 'svc') {
  const admin = () => basic(sb.credentials.username, sb.credentials.applicationPassword);
  const bearer = () => `Bearer ${sb.credentials.token}`;
  return {
    get admin() {
      return admin();
    },
    get bearer() {
      return bearer();
    },
    async ability(
      name: string,
      input?: Record<string, unknown>,
      init: { method?: string; auth?: string | null } = {},
    ) {
      const method = init.method ?? 'GET';
      const base = `${sb.url}/wp-json/wp-abilities/v1/abilities/${ns}/${name}/run`;
      const query = method === 'POST' || !input ? '' : `?${bracketQuery(input)}`;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const auth = init.auth === undefined ? admin() : init.auth;
      if (auth) headers.authorization = auth;
      const body = method === 'POST' ? JSON.stringify(input === undefined ? {} : { input }) : undefined;
      return json(await fetch(base + query, { method, headers, ...(body ? { body } : {}) }));
    },
    async rest(method: string, path: string, body?: unknown, auth: string | null = bearer()) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (auth) headers.authorization = auth;
      return json(
        await fetch(`${sb.url}/wp-json/${ns}/v2/${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    },
    async raw(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
      return json(await fetch(`${sb.url}${path}`, { method, ...init }));
    },
    async control(method: string, path: string, body?: unknown) {
      return json(
        await fetch(`${sb.url}/__sandbox/${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    },
  };
}
