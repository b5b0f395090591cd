/**
 * One error class with a closed set of codes, set where the error is born; nothing classifies
 * errors by matching message text. Messages and hints are written for the person running the
 * tool and never carry a credential. Imports nothing.
 */

export const ERROR_CODES = [
  // input
  'USAGE',
  'CONFIG_INVALID',
  'SETTINGS_INVALID',
  'PLAN_INVALID',
  'IO_ERROR',
  // dashboard connection and responses
  'AUTH_FAILED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONNECTION_FAILED',
  'TIMEOUT',
  'TLS_ERROR',
  'HTTP_ERROR',
  'RATE_LIMITED',
  'BAD_RESPONSE',
  'RESPONSE_TOO_LARGE',
  'RESOURCE_EXHAUSTED',
  'INCOMPLETE_READ',
  'UNSUPPORTED',
  // approval (the interface's confirmation vocabulary)
  'PREVIEW_REQUIRED',
  'PREVIEW_EXPIRED',
  'CONFLICTING_PARAMETERS',
  'SAFE_MODE_BLOCKED',
  // apply
  'LOCKED',
  'APPLY_FAILED',
  'INTERRUPTED',
  /** A health check found unhealthy sites: the rollout does not continue. */
  'UNHEALTHY',
  /** A gate the plan passed (a window, a soak time, a wave's `after`) is shut when apply writes. */
  'GATE_CLOSED',
  // the vulnerability feed: malformed, truncated, or not downloaded
  'FEED_INVALID',
  // github
  'GITHUB_API',
  // a bug in svc-gitops itself
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface SvcErrorOptions {
  /** What the person can do about it. */
  hint?: string;
  /** Structured facts (method, path, status, dashboard code, …); never credentials. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class SvcError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: SvcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SvcError';
    this.code = code;
    this.hint = options.hint;
    this.details = options.details ?? {};
  }
}

export function isSvcError(value: unknown): value is SvcError {
  return value instanceof SvcError;
}

/**
 * A failure that says nothing answers at the dashboard's address (a refused connection, a host
 * that does not resolve or route), as the transport classified it where the failure was born
 * (`details.unreachable`); never a reply, however bad.
 */
export function isDashboardUnreachable(error: unknown): error is SvcError {
  return isSvcError(error) && error.details.unreachable === true;
}

/** A problem found in the desired state (or settings), located in its file. Never thrown. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  /** The named rule or check that found it, e.g. `schema`, `yaml-syntax`, `unknown-group`. */
  rule: string;
  message: string;
  file?: string;
  line?: number;
  col?: number;
  /** JSON path of the offending value, e.g. `/policies/0/max`. */
  path?: string;
  hint?: string;
  /** Other places involved (the first definition of a duplicate, …). */
  related?: Array<{ file: string; line: number; col: number; message?: string }>;
}

/** Documented process exit codes. */
export const EXIT = {
  ok: 0,
  error: 1,
  /** `--detailed-exitcode`: the plan has changes. */
  changes: 2,
  /**
   * `plan`, `drift`, `apply`: the rollout is halted (a wave has unhealthy sites and the waves
   * after it are held), on every run until a health check passes or `--override-health`.
   */
  halted: 3,
  /**
   * `plan`, `drift` with `--fail-on-vulnerable`: the plan lists sites vulnerable with no fix.
   * An error (1) or a halted rollout (3) outranks it; it outranks changes and drift (2).
   */
  vulnerable: 4,
  interrupted: 130,
} as const;

/**
 * Where JSON.parse gave up, as line and column, without quoting the text: V8's own message
 * quotes the text around the error, which may hold a password (a settings file, or a file
 * passed where a plan was expected).
 */
export function jsonSyntaxPlace(error: unknown, text: string): string {
  const match = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  if (!match) return 'a syntax error';
  const before = text.slice(0, Number(match[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `a syntax error at line ${line}, column ${column}`;
}

/**
 * Code-unit order of two texts: never the machine's locale, so output is the same everywhere
 * (and files sort as they merge: `B.yaml` before `a.yaml`).
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Diagnostics by file, line and column; those without a file first. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareCodeUnits(a.file ?? '', b.file ?? '') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.col ?? 0) - (b.col ?? 0)
  );
}
