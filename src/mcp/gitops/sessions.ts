import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Applied,
  type Approval,
  type CallPhase,
  type Diagnostic,
  refusalError,
  type Session,
  type SessionPlan,
  type SessionStatus,
} from '../../index.js';
import { insideWorkingDirectory, type Validated, withProblems } from './desired-source.js';

/**
 * How the GitOps tools reach the engine: only through its session (openSession), one per call,
 * so its signal is the call's and what it reports (warnings, the desired state's problems)
 * belongs to that call. Every use-case decision is the session's: the plan with its rollout
 * state, gates and refusals; the approval of a plan this server holds (integrity, expiry,
 * dashboard, safe mode, strict, the nothing-to-apply case); the run with its lock, journal,
 * single use, live re-check and rollout records. The tools word and render what it returns.
 */
export interface ToolSessions {
  /**
   * A session for one call: `problems` collects the desired state's diagnostics; `cwd` and `fs`
   * (YAML text validated in a temporary directory on disk) replace the server's.
   */
  open(call?: { signal?: AbortSignal; problems?: Diagnostic[]; cwd?: string; fs?: typeof nodeFs }): Session;
  /** The working directory: every path an agent names stays inside it. */
  cwd: string;
  /** Journal, lock and used plans, as the CLI keeps them (`.svc-gitops/`). */
  stateDir: string;
}

export interface ToolPlanRequest {
  config?: string;
  targets?: string[];
  /** A preview clock: the gates judged at this moment; the plan is never applied. */
  at?: Date;
}

/**
 * One use case of a session opened for one call, with the desired state `config` names (inside
 * the working directory) and its first problems in the refusal; the session is closed after.
 */
async function throughSession<T>(
  sessions: ToolSessions,
  config: string | undefined,
  signal: AbortSignal,
  use: (session: Session, config: string | undefined) => Promise<T>,
): Promise<T> {
  const inside = config === undefined ? undefined : insideWorkingDirectory(sessions.cwd, config);
  const problems: Diagnostic[] = [];
  const session = sessions.open({ signal, problems });
  try {
    return await withProblems(problems, () => use(session, inside));
  } finally {
    await session.close();
  }
}

/** A plan made now through the session, as the CLI plans. */
export function planThrough(
  sessions: ToolSessions,
  request: ToolPlanRequest,
  signal: AbortSignal,
): Promise<SessionPlan> {
  return throughSession(sessions, request.config, signal, (session, config) =>
    session.plan({
      config,
      ...(request.targets?.length ? { targets: request.targets } : {}),
      ...(request.at ? { at: request.at } : {}),
    }),
  );
}

/** The status through the session, as `svc-gitops status` makes it. */
export function statusThrough(
  sessions: ToolSessions,
  config: string | undefined,
  signal: AbortSignal,
): Promise<SessionStatus> {
  return throughSession(sessions, config, signal, (session, inside) => session.status({ config: inside }));
}

export type HeldApproval = Exclude<Approval, { kind: 'refused' } | { kind: 'cancelled' }>;

/**
 * The session's approval of a plan this server holds; a refusal throws (the call path words it,
 * words.ts). `dryRun`: for listing the calls only.
 */
export async function approveThrough(
  sessions: ToolSessions,
  planned: SessionPlan,
  dryRun = false,
): Promise<HeldApproval> {
  const session = sessions.open();
  try {
    const approval = await session.approve({ path: 'held', planned, dryRun });
    if (approval.kind === 'refused') throw refusalError(approval);
    if (approval.kind === 'cancelled') throw new Error('a held plan’s approval asks nobody');
    return approval;
  } finally {
    await session.close();
  }
}

/** Runs an approval through the session: the CLI's run, journal and rollout records. */
export async function applyThrough(
  sessions: ToolSessions,
  approval: Extract<Approval, { kind: 'approved' }>,
  signal: AbortSignal,
): Promise<Applied> {
  const session = sessions.open({ signal });
  try {
    return await session.apply(approval, { stateDir: sessions.stateDir });
  } finally {
    await session.close();
  }
}

/** The calls an approval would send, sending nothing. */
export async function callsThrough(
  sessions: ToolSessions,
  approval: Extract<Approval, { kind: 'approved' }>,
): Promise<CallPhase[]> {
  const session = sessions.open();
  try {
    return await session.calls(approval);
  } finally {
    await session.close();
  }
}

/** Shown instead of the temporary file that holds YAML text while it is validated. */
const TEXT_SOURCE = 'desired-state.yaml';

/** A desired-state path inside the working directory, or YAML text. */
export type DesiredSource = { path?: string; yaml?: string };

/**
 * A desired state checked through the session's validate: a path inside the working directory,
 * or YAML text validated as a file of its own in a temporary directory, removed afterwards.
 */
export async function validateSource(sessions: ToolSessions, source: DesiredSource): Promise<Validated> {
  if (source.yaml === undefined) {
    const config =
      source.path === undefined
        ? undefined
        : insideWorkingDirectory(sessions.cwd, source.path, 'or pass the YAML as text');
    const loaded = await sessions.open().validate(config);
    return {
      source: loaded.configPath,
      diagnostics: loaded.diagnostics,
      ...(loaded.desired ? { desired: loaded.desired } : {}),
    };
  }
  const dir = nodeFs.mkdtempSync(join(tmpdir(), 'svc-gitops-mcp-'));
  try {
    nodeFs.writeFileSync(join(dir, TEXT_SOURCE), source.yaml);
    const loaded = await sessions.open({ cwd: dir, fs: nodeFs }).validate(TEXT_SOURCE);
    return {
      source: TEXT_SOURCE,
      diagnostics: loaded.diagnostics,
      ...(loaded.desired ? { desired: loaded.desired } : {}),
    };
  } finally {
    nodeFs.rmSync(dir, { recursive: true, force: true });
  }
}
