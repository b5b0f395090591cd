import type * as nodeFs from 'node:fs';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Settings } from '../settings/index.js';
import type { CallRate, SessionBudget } from './limits.js';

export interface ToolServerOptions {
  env: Record<string, string | undefined>;
  /** The working directory: the settings file there, the desired state, the journal (`--chdir` sets it). */
  cwd: string;
  fs: typeof nodeFs;
  /**
   * The file system `configure` saves the login with: the settings file must hold the password
   * as typed, so a front end that masks secrets in what it writes passes its unmasked one here.
   * Absent: `fs`.
   */
  settingsFs?: typeof nodeFs;
  homeDir: string;
  /** `--namespace`: the product name in tool prefixes, variables, file names and the interface. */
  namespace?: string;
  /** Wall clock (tokens, rate limit, plans); injected in tests. */
  now?: () => Date;
  /** One line for the operator (stderr); never the protocol channel. */
  log: (line: string) => void;
  newToken?: () => string;
  /** Jitter source for the client's retry backoff (tests). */
  random?: () => number;
  /**
   * The call rate and data budget to count against, shared by every server of one process
   * (`mcp --http` makes one per session): a new session must not reset them (spec §8: only a
   * restart does). Absent: the server's own, from its settings.
   */
  limits?: ServerLimits;
}

/** The per-process limits of spec §8 that count tool calls and the data they answer. */
export interface ServerLimits {
  rate: CallRate;
  budget: SessionBudget;
}

export interface ToolServer {
  server: Server;
  /** The limits this server counts against (to share with the servers of later sessions). */
  limits: ServerLimits;
  /** The settings in effect (after a successful configure, the new ones). */
  settings(): Settings;
  close(): Promise<void>;
}
