import * as nodeFs from 'node:fs';
import { type ConfigChoice, loadDesiredState, resolveConfigPath } from '../config/index.js';
import { type Diagnostic, SvcError } from '../errors.js';
import { countDiagnostics } from '../render/index.js';
import type { DesiredState } from '../types.js';

export interface LoadDesiredOptions {
  /** Relative paths (and the default `svc-gitops.yaml`, else `svc-gitops/`) resolve against it. */
  cwd: string;
  /** A desired-state file or directory; by default the one in `cwd`. */
  config?: string | undefined;
  /** `node:fs`-compatible (memfs in tests); `node:fs` by default. */
  fs?: typeof nodeFs | undefined;
  /** Aborted: the load stops with SvcError INTERRUPTED (config's loadDesiredState). */
  signal?: AbortSignal | undefined;
  /** How hints name the way to pick a path (the CLI's `-c PATH` by default). */
  choice?: ConfigChoice | undefined;
}

export interface DesiredLoad {
  /** The path read, as given or found in `cwd`. */
  configPath: string;
  /** Present only when no diagnostic is an error. */
  desired: DesiredState | undefined;
  /** Every problem and warning, located at file:line:col, in file order. */
  diagnostics: Diagnostic[];
}

/**
 * Reads and validates the desired state. Bad content is never thrown: it is in `diagnostics`
 * (and `desired` is then undefined). Throws only when there is nothing to read: CONFIG_INVALID
 * when no default config is in `cwd`, USAGE when both default forms are.
 */
export async function loadDesired(options: LoadDesiredOptions): Promise<DesiredLoad> {
  const fs = options.fs ?? nodeFs;
  const configPath = resolveConfigPath(fs, options.cwd, options.config, options.choice);
  const { desired, diagnostics } = await loadDesiredState({
    path: configPath,
    fs,
    cwd: options.cwd,
    signal: options.signal,
  });
  return { configPath, desired, diagnostics };
}

/**
 * The desired state of a load, or SvcError CONFIG_INVALID counting its errors: its reason and
 * path, no hint (each front end names its own way to list the problems).
 */
export function requireDesired(load: DesiredLoad): DesiredState {
  if (load.desired) return load.desired;
  const { errors } = countDiagnostics(load.diagnostics);
  throw new SvcError('CONFIG_INVALID', `${load.configPath}: ${errors} error(s) in the desired state`, {
    details: { reason: 'desired-invalid', path: load.configPath, diagnostics: load.diagnostics },
  });
}

/**
 * The desired state at hand for a saved plan, if any: a saved plan applies without one (CI may
 * hold only the plan file), so a missing or ambiguous default config is no error here.
 */
export async function configAtHand(
  options: LoadDesiredOptions,
): Promise<{ path: string; desired: DesiredState | undefined } | undefined> {
  const fs = options.fs ?? nodeFs;
  let path: string;
  try {
    path = resolveConfigPath(fs, options.cwd, options.config);
  } catch {
    return undefined;
  }
  const { desired } = await loadDesiredState({ path, fs, cwd: options.cwd, signal: options.signal });
  return { path, desired };
}
