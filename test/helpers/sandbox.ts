import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { parseFleet, type RunningSandbox } from '../../src/sandbox/index.js';

type Fleet = ReturnType<typeof parseFleet>;

/** What a test needs of a running sandbox: where it listens and how to log in. */
export type SandboxHandle = Pick<RunningSandbox, 'url' | 'credentials' | 'env'>;

/**
 * A sandbox started before the suite's tests (`suite`) or before each test (`test`) and closed
 * after them. The handle reads through to whichever sandbox is running, so a suite can pass it
 * to helpers while it is being collected; using it outside a test throws. The hooks own the
 * sandbox's lifetime, so the handle has no `close`.
 */
export function sandboxPer(scope: 'suite' | 'test', start: () => Promise<RunningSandbox>): SandboxHandle {
  let running: RunningSandbox | undefined;
  const [before, after] = scope === 'suite' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    running = await start();
  });
  after(async () => {
    await running?.close();
    running = undefined;
  });
  const current = (): RunningSandbox => {
    if (!running) throw new Error('the sandbox runs only while the tests of its suite run');
    return running;
  };
  return {
    get url() {
      return current().url;
    },
    get credentials() {
      return current().credentials;
    },
    env: () => current().env(),
  };
}

/**
 * The sandbox's SVC_* login variables plus client settings that keep tests fast: no rate
 * limit, millisecond retry back-off. `extra` is applied last.
 */
export function fastClientEnv(
  sandbox: Pick<RunningSandbox, 'env'>,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...sandbox.env(),
    SVC_RATE_LIMIT: '0',
    SVC_RETRY_BASE_DELAY: '1',
    SVC_RETRY_MAX_DELAY: '5',
    ...extra,
  };
}

/**
 * A caller for the sandbox's `/__sandbox/` control routes (stats, state, pending, faults). A
 * refused control call throws: a test must not go on against a sandbox it failed to set up.
 */
export function sandboxControl(sandbox: Pick<RunningSandbox, 'url'>) {
  return async (method: string, route: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandbox.url}/__sandbox/${route}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const value: unknown = await response.json();
    if (!response.ok) throw new Error(`sandbox control ${method} ${route}: ${JSON.stringify(value)}`);
    return value;
  };
}

let demo: Fleet | undefined;

/** The demo fleet (examples/sandbox/demo-fleet.yaml), parsed once per test file. */
export function demoFleet(): Fleet {
  demo ??= parseFleet(
    readFileSync(join(import.meta.dirname, '../../examples/sandbox/demo-fleet.yaml'), 'utf8'),
    'demo-fleet.yaml',
  );
  return demo;
}
