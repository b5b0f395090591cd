import type * as nodeFs from 'node:fs';
import { type DashboardClient, openSession, type Settings, stateDirOf } from '../../index.js';
import { settingVariable } from '../../settings/index.js';
import { toolChoice } from './desired-source.js';
import type { ToolSessions } from './sessions.js';

export type { ToolSessions } from './sessions.js';

export interface ToolSessionsOptions {
  /** The server's dashboard client, kept open across calls (a session never closes it). */
  client: DashboardClient;
  settings: Settings;
  fs: typeof nodeFs;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
  /** The product: the variables plan notes name (SVC_TOKEN, or NAME_TOKEN under --namespace). */
  product: string;
  onWarning: (message: string) => void;
}

/** The engine's sessions of one connected tool server: its client, settings, directory and log. */
export function toolSessions(options: ToolSessionsOptions): ToolSessions {
  const { client, settings, now, onWarning } = options;
  return {
    cwd: options.cwd,
    stateDir: stateDirOf(options.env),
    open: (call = {}) => {
      const cwd = call.cwd ?? options.cwd;
      return openSession({
        settings,
        fs: call.fs ?? options.fs,
        cwd,
        now,
        signal: call.signal,
        client,
        tokenVariable: settingVariable('token', options.product),
        configChoice: toolChoice(cwd),
        on: {
          warning: onWarning,
          diagnostics: (diagnostics) => call.problems?.push(...diagnostics),
          checked: (wave, _count, _unhealthy, refused) => {
            if (refused.length > 0)
              onWarning(
                `the dashboard answered ${refused.length} health check(s) of wave ${wave} with an error (first: ${refused[0]}); those sites count as unhealthy`,
              );
          },
        },
      });
    },
  };
}
