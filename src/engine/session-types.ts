import type * as nodeFs from 'node:fs';
import type { ConfigChoice } from '../config/index.js';
import type { DashboardClient, DashboardClientOptions } from '../dashboard/index.js';
import type { Diagnostic } from '../errors.js';
import type { Settings } from '../settings/index.js';
import type { DesiredState, LiveState, Plan, PlanRollout, UnhealthySite } from '../types.js';
import type { ReviewRefusal } from './merge-refusals.js';
import type { ReadProgressSink } from './plan-now.js';
import type { UnknownName } from './unknown-names.js';

/**
 * What a session reports while it works. Every member is optional: a front end listens to what
 * it shows (the CLI prints progress on stderr; the tool server collects warnings).
 */
export interface SessionEvents {
  /** Something the person should know; the work goes on. May quote the dashboard. */
  warning?: (message: string) => void;
  /** The desired state's problems and warnings, located, before a plan is made or refused. */
  diagnostics?: (diagnostics: Diagnostic[]) => void;
  /** A read of the dashboard starts (two with `refresh`): its progress sink. */
  reading?: () => ReadProgressSink;
  /** The live state has been read. */
  read?: (read: { live: LiveState; targetSiteIds?: number[] }) => void;
  /** A wave's plan-time health check starts: its progress sink. */
  checking?: (wave: string) => { onProgress: (done: number, total: number) => void; finish(): void };
  /** A wave's plan-time health check found `unhealthy` of `siteCount`; `refused` checks count as unhealthy. */
  checked?: (wave: string, siteCount: number, unhealthy: UnhealthySite[], refused: string[]) => void;
  /** The installed items are read to judge slugs under strict: its progress sink. */
  searching?: () => { onProgress: (read: number, sites: number) => void; finish(): void };
  /** The rollout state file was written. */
  recorded?: (path: string) => void;
  /** A dashboard client was opened: its counters (for a front end's "stopping" line). */
  opened?: (client: Pick<DashboardClient, 'stats' | 'url'>) => void;
}

export interface SessionOptions {
  /** The connection settings, or how to load them when the dashboard is first needed. */
  settings: Settings | (() => Settings);
  fs: typeof nodeFs;
  /** Relative paths (the desired state, plan files, the state directory) resolve against it. */
  cwd: string;
  now: () => Date;
  /** Aborted: reads and writes stop as they do for Ctrl-C. */
  signal?: AbortSignal | undefined;
  on?: SessionEvents | undefined;
  /** A client the caller keeps (the tool server's); by default one is opened and closed by the session. */
  client?: DashboardClient | undefined;
  /** The clock and waits the opened client paces by. */
  timers?: DashboardClientOptions['timers'] | undefined;
  /** The variable of the REST API key that plan notes name (SVC_TOKEN by default). */
  tokenVariable?: string | undefined;
  /** The state directory (relative to `cwd`): the vulnerability feed is cached in its `feeds/`. Default `.svc-gitops`. */
  stateDir?: string | undefined;
  /** How a missing or ambiguous desired state's hint names the way to pick one (the CLI's `-c PATH` by default). */
  configChoice?: ConfigChoice | undefined;
}

export interface PlanRequest {
  /** A desired-state file or directory; by default the one in `cwd`. */
  config?: string | undefined;
  /** Site IDs, domains or domain globs to restrict the plan to. */
  targets?: readonly string[] | undefined;
  /** Ask the dashboard to re-sync the managed sites before reading. */
  refresh?: boolean | undefined;
  /** Open wave gates whose health checks fail; time gates hold. */
  overrideHealth?: boolean | undefined;
  /** A preview: the gates are judged at this moment, from what is known now; nothing is recorded. */
  at?: Date | undefined;
  /** Unknown names refuse (the `strict` setting is honoured too); the installed items are read to judge slugs. */
  strict?: boolean | undefined;
}

/** A plan made by the session, with what it was made from and what the merge-time apply would refuse. */
export interface SessionPlan {
  desired: DesiredState;
  live: LiveState;
  plan: Plan;
  configPath: string;
  /** The sites `targets` named, ascending: only their updates and ignores were read. */
  targetSiteIds?: number[];
  /** The rollout state and plan-time health checks the plan was made with, if any. */
  rollout?: PlanRollout;
  /** Strict: from the request or the settings. */
  strict: boolean;
  /** The preview clock the plan was made at (`PlanRequest.at`): such a plan is never applied. */
  at?: Date;
  /** Names the dashboard does not know (and slugs that could not be judged: `unchecked`). */
  unknown: UnknownName[];
  /** Why the apply of this plan (after the merge) would be refused: codes with data, in order. */
  refusals: ReviewRefusal[];
}
