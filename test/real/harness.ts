/**
 * The conformance suite's handle on scripts/real-dashboard/real-dashboard.sh: one command at a
 * time, each with a bound, and the SVC_* settings it prints.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SCRIPT = join(ROOT, 'scripts/real-dashboard/real-dashboard.sh');

/** Where the harness keeps everything (the suite passes it explicitly, so tests can read the sites' files). */
export const BASE =
  process.env.SVC_REAL_BASE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'svc-gitops-real-dashboard');

/** Runs one harness command; throws with its output when it fails or outlives `seconds`. */
export function harness(args: string[], seconds = 120): string {
  return execFileSync('bash', [SCRIPT, ...args], {
    env: { ...process.env, SVC_REAL_BASE: BASE },
    encoding: 'utf8',
    timeout: seconds * 1000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The SVC_* settings of the running dashboard (its `env` lines). */
export function realEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of harness(['env']).split('\n')) {
    const m = /^export (SVC_[A-Z_]+)=(.*)$/.exec(line);
    // The values are shell-quoted with printf %q; the harness's values need no unquoting beyond '…'.
    if (m) env[m[1] as string] = (m[2] as string).replace(/^'(.*)'$/, '$1');
  }
  return env;
}

/** The Version header of a file on a child site (what an applied update really installed). */
export function installedVersion(child: string, file: string): string | undefined {
  try {
    const text = readFileSync(join(BASE, 'sites', child, 'wp-content', file), 'utf8');
    return /^[ \t/*#@]*Version:[ \t]*([0-9][0-9.]*)/m.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

/** Why the suite cannot run here (set by the global setup), or undefined. */
export function skipReason(): string | undefined {
  return process.env.SVC_REAL_SKIP || undefined;
}
