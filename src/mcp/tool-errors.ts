/**
 * The JSON of an error result, in the dashboard vendor's two shapes (docs/mcp.md, "Error
 * results"), so a client written for its tool server reads ours unchanged:
 *
 * - a step of the confirmation flow or a refused argument (WORKFLOW_CODES):
 *   `{"error":"PREVIEW_REQUIRED","code":"PREVIEW_REQUIRED","message",["next_action"],"details"}`;
 * - anything else: `{"error":{"code":-32003,"message","data":{…}},"code":"TOOL_NOT_FOUND"}`, the
 *   numeric code the vendor gives the same condition.
 *
 * `code`, in both, is always our name of the condition: one field to read for any error.
 */

/** Codes the vendor answers with its workflow payload (`error` a string). */
const WORKFLOW_CODES: ReadonlySet<string> = new Set([
  'SAFE_MODE_BLOCKED',
  'PREVIEW_REQUIRED',
  'PREVIEW_EXPIRED',
  'CONFLICTING_PARAMETERS',
  'CONFIRMATION_UNSUPPORTED',
  'INVALID_PARAMETER',
  'USER_DECLINED',
]);

/** The vendor's numeric codes (JSON-RPC's range for servers), by condition. */
const VENDOR_CODES = {
  SERVER_ERROR: -32000,
  TIMEOUT: -32001,
  RESOURCE_NOT_FOUND: -32002,
  TOOL_NOT_FOUND: -32003,
  RESOURCE_EXHAUSTED: -32006,
  PERMISSION_DENIED: -32008,
  UNAUTHORIZED: -32010,
  RATE_LIMITED: -32029,
  CANCELLED: -32099,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/** Our codes outside the workflow vocabulary → the vendor's numeric code for the same condition. */
const NUMERIC: Readonly<Record<string, number>> = {
  TOOL_NOT_FOUND: VENDOR_CODES.TOOL_NOT_FOUND,
  TOOL_NOT_ALLOWED: VENDOR_CODES.PERMISSION_DENIED,
  FORBIDDEN: VENDOR_CODES.PERMISSION_DENIED,
  NOT_FOUND: VENDOR_CODES.RESOURCE_NOT_FOUND,
  TIMEOUT: VENDOR_CODES.TIMEOUT,
  RESOURCE_EXHAUSTED: VENDOR_CODES.RESOURCE_EXHAUSTED,
  AUTH_FAILED: VENDOR_CODES.UNAUTHORIZED,
  RATE_LIMITED: VENDOR_CODES.RATE_LIMITED,
  // The vendor answers an oversized response and a refused argument with InvalidParams.
  RESPONSE_TOO_LARGE: VENDOR_CODES.INVALID_PARAMS,
  USAGE: VENDOR_CODES.INVALID_PARAMS,
  CONFIG_INVALID: VENDOR_CODES.INVALID_PARAMS,
  PLAN_INVALID: VENDOR_CODES.INVALID_PARAMS,
  INTERRUPTED: VENDOR_CODES.CANCELLED,
  INTERNAL: VENDOR_CODES.INTERNAL_ERROR,
  // The dashboard failed or refused: the vendor's "server error".
  HTTP_ERROR: VENDOR_CODES.SERVER_ERROR,
  BAD_RESPONSE: VENDOR_CODES.SERVER_ERROR,
  CONNECTION_FAILED: VENDOR_CODES.SERVER_ERROR,
  TLS_ERROR: VENDOR_CODES.SERVER_ERROR,
  INCOMPLETE_READ: VENDOR_CODES.SERVER_ERROR,
};

/** The numeric code of one of our codes (anything unlisted is the vendor's internal error). */
function numericCode(code: string): number {
  return NUMERIC[code] ?? VENDOR_CODES.INTERNAL_ERROR;
}

/** What the vendor tells a client to do next after a refused confirmation. */
const NEXT_ACTION: Readonly<Record<string, string>> = {
  PREVIEW_REQUIRED: 'request_preview_first',
  PREVIEW_EXPIRED: 'request_new_preview',
};

export interface ErrorFacts {
  tool: string;
  ability?: string;
  reason?: string;
  resolution?: string;
  /** More facts for the numeric shape's `data` (a status, the dashboard's own code). */
  data?: Record<string, unknown>;
}

/** The structured content of an error result with `code`, in the shape its code takes. */
export function errorJson(code: string, message: string, facts: ErrorFacts): Record<string, unknown> {
  const { data, ...details } = facts;
  const detailed = withoutUndefined(details);
  if (WORKFLOW_CODES.has(code)) {
    const next = NEXT_ACTION[code];
    return { error: code, code, message, ...(next ? { next_action: next } : {}), details: detailed };
  }
  return {
    error: { code: numericCode(code), message, data: { ...detailed, ...withoutUndefined(data ?? {}) } },
    code,
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
