import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  type FaultRule,
  loadFleet,
  type RunningSandbox,
  type SandboxOptions,
  type SandboxProfile,
  startSandbox,
} from '../../src/sandbox/index.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/** The repository root: example paths in plans are shown relative to it, as a user would run them. */
export const REPO = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
export const DEMO_FLEET = join(REPO, 'examples/sandbox/demo-fleet.yaml');
export const PROFILES: readonly SandboxProfile[] = ['spec', 'compat-6.1'];

/**
 * Retries stay on (the transport's behaviour is part of what is tested) but with tiny delays,
 * so failing runs finish in milliseconds instead of seconds.
 */
export const FAST_RETRIES = { SVC_RETRY_BASE_DELAY: '1', SVC_RETRY_MAX_DELAY: '5' };

export async function startDemo(
  profile: SandboxProfile,
  options: Partial<SandboxOptions> = {},
): Promise<RunningSandbox> {
  return startSandbox({ fleet: await loadFleet(DEMO_FLEET), profile, ...options });
}

/**
 * The environment a user would export after `svc-gitops sandbox`, plus a HOME of its own so no
 * settings file of the machine running the tests can leak in.
 */
export function sandboxEnv(sandbox: Pick<RunningSandbox, 'env'>, home: string): Record<string, string> {
  return { ...sandbox.env(), ...FAST_RETRIES, HOME: home };
}

/** A fleet of `count` sites (IDs 1 to count, `https://site-<id>.demo.test/`), each with one plugin update pending. */
export function pluginUpdateFleet(count: number): string {
  const sites = Array.from(
    { length: count },
    (_, i) =>
      `  - id: ${i + 1}\n    url: https://site-${i + 1}.demo.test/\n    plugins:\n      akismet/akismet.php: 5.3.6 -> 5.3.7`,
  );
  return `sites:\n${sites.join('\n')}\n`;
}

/**
 * A rollout in three waves over `pluginUpdateFleet(6)`: canary (sites 1-2), early (3-4) once
 * canary has been healthy for 24h, everyone once early has.
 */
export const THREE_WAVE_ROLLOUT = `version: 1
updates:
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
rollout:
  health: {}
  waves:
    - {name: canary, sites: [1, 2]}
    - {name: early, sites: [3, 4], after: {wave: canary, healthy_for: 24h}}
    - {name: everyone, sites: [all], after: {wave: early, healthy_for: 24h}}
`;

/** The rollout tests' injected start time; `hours(n)` is n hours after it (nothing sleeps). */
export const T0 = new Date('2026-11-23T10:00:00Z');
export const hours = (n: number): Date => new Date(T0.getTime() + n * 3_600_000);

/** A fresh directory under the OS temp dir, removed once the tests of the calling file are done. */
export function tempDir(prefix = 'svc-gitops-e2e-'): string {
  return tempDirForFile(prefix);
}

interface SandboxStatsSnapshot {
  requests_total: number;
  requests: Record<string, number>;
  abilities: Record<string, number>;
}

export async function sandboxStats(sandbox: RunningSandbox): Promise<SandboxStatsSnapshot> {
  const response = await fetch(`${sandbox.url}/__sandbox/stats`);
  return (await response.json()) as SandboxStatsSnapshot;
}

export async function resetStats(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/__sandbox/stats/reset`, { method: 'POST' });
}

export async function setFaults(sandbox: RunningSandbox, rules: FaultRule[]): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules }),
  });
  if (!response.ok) throw new Error(`sandbox refused the faults: ${await response.text()}`);
}

/** A loopback URL on which nothing listens: the port was bound, then released. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const planSchema = JSON.parse(readFileSync(join(REPO, 'schemas/plan.schema.json'), 'utf8'));
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validatePlan = ajv.compile(planSchema);

/** Schema errors of a saved plan as one readable string; empty when it is valid. */
export function planSchemaErrors(plan: unknown): string {
  return validatePlan(plan) ? '' : ajv.errorsText(validatePlan.errors);
}

/** What a stack trace looks like in output: "    at fn (file:line:col)". */
export const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$/m;
