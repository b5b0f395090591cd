import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isSvcError, type SvcError } from '../errors.js';
import type { SecretMask } from '../secrets/index.js';
import { type Settings, settingVariable } from '../settings/index.js';
import type { CallRate, SessionBudget } from './limits.js';
import type { SetupState } from './setup.js';
import {
  type AskUser,
  answerResult,
  type CallContext,
  type CallToolResult,
  type ComposedOutcome,
  callToolResult,
  isPassedOn,
  type PassedOnAnswer,
  type ToolDef,
  type ToolOutcome,
  toolError,
} from './tool-result.js';
import { toolWords } from './words.js';

/** What the call path reads of the server: its settings and state as they are at each call. */
export interface CallPathHost {
  product: string;
  settings(): Settings;
  secrets(): SecretMask;
  rate: CallRate;
  budget: SessionBudget;
  /** The argument check of the server's own tools (the dashboard checks its abilities' input). */
  checkers: ReadonlyMap<string, (args: unknown) => string | undefined>;
  /** Whether the allow/block lists let a client see the tool. */
  visible(name: string): boolean;
  findTool(name: string, signal: AbortSignal): Promise<ToolDef | undefined>;
  state(): SetupState;
  /** Names of the GitOps tools, which answer NOT_CONFIGURED while the server is not connected. */
  gitopsNames: ReadonlySet<string>;
  /** The client's user within the call `requestId`, when the client can ask (elicitation). */
  askUser(requestId: string | number): AskUser | undefined;
}

/**
 * tools/call, in order: allowed/blocked tools, the tool's lookup, the session data budget, the
 * call rate, the tool's own argument schema, safe mode, then the tool (whose confirmation flow is
 * its own), then the secret mask, the response size limit and the session budget on its answer.
 * Every refusal, an unknown or hidden tool too, is an error result (the vendor's shapes,
 * tool-errors.ts), never a protocol error: only a malformed request is one (InvalidParams).
 */
export function callHandler(host: CallPathHost) {
  const path = new CallPath(host);
  return async (
    request: { method: string; params?: unknown },
    extra: { signal: AbortSignal; requestId: string | number },
  ): Promise<CallToolResult> => {
    if (request.method !== 'tools/call') throw methodNotFound();
    const { name, args } = callParams(request.params);
    if (!host.visible(name)) return path.hidden(name);
    const tool = await host.findTool(name, extra.signal);
    if (!tool) {
      const state = host.state();
      if (state.state !== 'ready' && (host.gitopsNames.has(name) || state.state === 'degraded')) {
        return path.result(notConfigured(host.product, state));
      }
      return path.unknown(name);
    }
    const askUser = host.askUser(extra.requestId);
    return path.guarded(tool, args, extra.signal, askUser ? { askUser } : {});
  };
}

class CallPath {
  constructor(private readonly host: CallPathHost) {}

  /**
   * A tool the allow/block lists hide: not found, as the interface says (spec §7 rule 5); the
   * vendor's server answers "not allowed" (-32008), and so does compatibility vendor.
   */
  hidden(name: string): CallToolResult {
    if (this.host.settings().compatibility !== 'vendor') return this.unknown(name);
    return this.result(
      toolError('TOOL_NOT_ALLOWED', `Tool is not allowed: ${name}`, {
        tool: name,
        reason: 'the allowedTools / blockedTools settings hide it',
      }),
    );
  }

  unknown(name: string): CallToolResult {
    return this.result(toolError('TOOL_NOT_FOUND', `Tool not found: ${name}`, { tool: name }));
  }

  /** The checks before a tool runs, in the order of callHandler's comment; a refusal or undefined. */
  private refusal(tool: ToolDef, args: Record<string, unknown>): ComposedOutcome | undefined {
    const { budget, rate, product } = this.host;
    if (budget.isExhausted) return this.exhausted(tool.name);
    if (!rate.admit()) {
      return toolError(
        'RATE_LIMITED',
        `Rate limit exceeded: more than ${rate.perMinute} tool calls in one minute`,
        {
          tool: tool.name,
          reason: `rateLimit is ${rate.perMinute} calls per minute`,
          resolution: 'wait a minute before calling again',
        },
      );
    }
    const problem = this.host.checkers.get(tool.name)?.(args);
    if (problem) return toolError('INVALID_PARAMETER', problem, { tool: tool.name });
    if (tool.destructive && this.host.settings().safeMode) {
      return toolError('SAFE_MODE_BLOCKED', `${tool.name} changes the dashboard and safe mode is on`, {
        tool: tool.name,
        reason: 'safe mode refuses destructive operations before any call to the dashboard',
        resolution: `change the dashboard through ${product}_plan and ${product}_apply (a plan the user approves), or an operator can set safeMode false (${settingVariable('safeMode', product)}=false)`,
      });
    }
    return undefined;
  }

  async guarded(
    tool: ToolDef,
    args: Record<string, unknown>,
    signal: AbortSignal,
    context: CallContext,
  ): Promise<CallToolResult> {
    const refused = this.refusal(tool, args);
    if (refused) return this.result(refused);
    let outcome: ToolOutcome;
    try {
      outcome = await tool.run(args, signal, context);
    } catch (error) {
      if (error instanceof McpError) throw error;
      outcome = isSvcError(error)
        ? worded(error, tool.name, this.host.product)
        : toolError('INTERNAL', error instanceof Error ? error.message : String(error), { tool: tool.name });
    }
    if (isPassedOn(outcome)) return this.passedOn(tool.name, outcome);
    return this.composed(tool.name, outcome);
  }

  /** A refusal of the call path itself: masked and formatted, counted against nothing. */
  result(outcome: ComposedOutcome): CallToolResult {
    const { json, text } = this.serialised(outcome);
    return callToolResult({ ...outcome, text }, json);
  }

  /** Enforces maxResponseSize and maxSessionData on the bytes a result's contents hold. */
  private withinLimits(tool: string, bytes: number, respond: () => CallToolResult): CallToolResult {
    const limit = this.host.settings().maxResponseSize;
    if (bytes > limit) {
      return this.result(
        toolError(
          'RESPONSE_TOO_LARGE',
          `Response too large: ${bytes} bytes exceeds the maximum allowed ${limit} bytes`,
          { tool, resolution: 'ask for less (a page, fewer sites or types), or raise maxResponseSize' },
        ),
      );
    }
    if (!this.host.budget.take(bytes)) return this.result(this.exhausted(tool));
    return respond();
  }

  /** A dashboard answer passed on as its text; in the pretty format, indented. */
  private passedOn(tool: string, answer: PassedOnAnswer): CallToolResult {
    const text =
      this.host.settings().responseFormat === 'pretty' ? indented(answer.answerJson) : answer.answerJson;
    return this.withinLimits(tool, Buffer.byteLength(text), () => answerResult({ answerJson: text }));
  }

  /**
   * A composed result: credentials masked (it may quote anything: arguments, files, a preview),
   * its structured content serialised once, counted with its text.
   */
  private composed(tool: string, outcome: ComposedOutcome): CallToolResult {
    const { json, text, structured } = this.serialised(outcome);
    const bytes = countBytes(json, text);
    return this.withinLimits(tool, bytes, () => callToolResult({ ...outcome, structured, text }, json));
  }

  /** The structured content and text of an outcome, credentials masked, in the response format. */
  private serialised(outcome: ComposedOutcome) {
    const secrets = this.host.secrets();
    const pretty = this.host.settings().responseFormat === 'pretty';
    let structured = outcome.structured;
    let json = JSON.stringify(structured);
    let text = outcome.text;
    if (secrets.finds(json) || (text !== undefined && secrets.finds(text))) {
      // Strings are masked one by one: a mask over the JSON text could cut an escape in two.
      structured = JSON.parse(json, (_key, value: unknown) =>
        typeof value === 'string' ? secrets.mask(value) : value,
      ) as Record<string, unknown>;
      json = JSON.stringify(structured);
      if (text !== undefined) text = secrets.mask(text);
    }
    return { structured, json, text: text ?? (pretty ? JSON.stringify(structured, null, 2) : json) };
  }

  private exhausted(tool: string): ComposedOutcome {
    const { budget } = this.host;
    return toolError(
      'RESOURCE_EXHAUSTED',
      `Session data limit exceeded (${budget.usedBytes} of ${budget.limit} bytes). Restart the tool server to continue.`,
      {
        tool,
        reason: 'maxSessionData counts every result since the tool server started, over every session',
        resolution:
          'only a restart of the tool server resets the count (a new session or reconnect does not); an operator can raise maxSessionData',
      },
    );
  }
}

/** JSON text indented by two spaces; text that is not JSON as it is. */
function indented(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** A result's bytes: its structured content and, when it differs, its text. */
function countBytes(json: string, text: string): number {
  const bytes = Buffer.byteLength(json);
  return bytes + (text === json ? bytes : Buffer.byteLength(text));
}

/** The facts of a dashboard failure worth a client's reading: its status and the dashboard's code. */
function upstream(details: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(typeof details.status === 'number' ? { status: details.status } : {}),
    ...(typeof details.dashboardCode === 'string' ? { upstream_code: details.dashboardCode } : {}),
  };
}

/**
 * The name and arguments of a tools/call request, as the protocol's schema requires them: a
 * string name and, when present, an object of arguments (InvalidParams otherwise).
 */
function callParams(params: unknown): { name: string; args: Record<string, unknown> } {
  const { name, arguments: args } = (isRecord(params) ? params : {}) as Record<string, unknown>;
  if (typeof name !== 'string') {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be a string');
  }
  if (args !== undefined && !isRecord(args)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'Invalid tools/call request: params.arguments must be an object',
    );
  }
  return { name, args: args ?? {} };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the SDK answers for a method without a handler (JSON-RPC's "Method not found"). */
function methodNotFound(): Error {
  return Object.assign(new Error('Method not found'), { code: ErrorCode.MethodNotFound });
}

function notConfigured(product: string, state: SetupState): ComposedOutcome {
  const message =
    state.state === 'degraded'
      ? `the tool server cannot use the dashboard at ${state.dashboardHost}: ${state.problem}`
      : 'the tool server has no dashboard configured';
  return {
    structured: {
      status: 'not_configured',
      state: state.state,
      message,
      guidance: `call ${product}_get_setup_status or ${product}_configure`,
    },
    isError: true,
  };
}

/** An engine error in this server's words (words.ts): the engine's refusals carry a reason, no hint. */
function worded(error: SvcError, tool: string, product: string): ComposedOutcome {
  const { message, hint } = toolWords(error, product);
  return toolError(error.code, message, {
    tool,
    ...(hint ? { resolution: hint } : {}),
    data: upstream(error.details),
  });
}
