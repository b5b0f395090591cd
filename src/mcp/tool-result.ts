import type { ErrorCode } from '../errors.js';
import { type ErrorFacts, errorJson } from './tool-errors.js';

/**
 * Codes of the tool server's refusals: the interface's confirmation vocabulary (spec §7), the
 * settings' limits, and svc-gitops's own error codes passed through from the engine.
 */
export type ToolErrorCode =
  | ErrorCode
  | 'CONFIRMATION_UNSUPPORTED'
  | 'INVALID_PARAMETER'
  | 'NOT_CONFIGURED'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_NOT_ALLOWED'
  | 'USER_DECLINED';

/** What a tool hands back: a result the server composed, or a dashboard answer passed on. */
export type ToolOutcome = ComposedOutcome | PassedOnAnswer;

/** Structured content, the text shown to the model, error or not. */
export interface ComposedOutcome {
  structured: Record<string, unknown>;
  /** Defaults to the structured content as JSON. */
  text?: string;
  isError?: boolean;
}

/**
 * A dashboard's answer passed on as its JSON text, the result's only content: an answer can be
 * the largest result there is (a 200-entry page is ~40 KB), and sending it as structured content
 * too would double every byte serialised, sent and parsed. The text comes from the dashboard
 * client, which masks in every answer the configured credentials and the server's own secrets
 * (createToolServer hands them over), so it needs no second scan.
 */
export interface PassedOnAnswer {
  answerJson: string;
}

export function isPassedOn(outcome: ToolOutcome): outcome is PassedOnAnswer {
  return 'answerJson' in outcome;
}

export type ToolErrorDetails = ErrorFacts;

/**
 * A refusal or failure as an error result in the vendor's shapes (tool-errors.ts); its text is
 * the same JSON, as the vendor's is, so a client that reads only text still parses it.
 */
export function toolError(code: ToolErrorCode, message: string, details: ToolErrorDetails): ComposedOutcome {
  return { structured: errorJson(code, message, details), isError: true };
}

export function toolOk(structured: Record<string, unknown>, text?: string): ComposedOutcome {
  return text === undefined ? { structured } : { structured, text };
}

export interface CallToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The wire form of a passed-on answer: the text content alone. */
export function answerResult(answer: PassedOnAnswer): CallToolResult {
  return { content: [{ type: 'text', text: answer.answerJson }] };
}

/** The wire form of a composed outcome (MCP CallToolResult); `json` is the structured content serialised, when known. */
export function callToolResult(outcome: ComposedOutcome, json?: string): CallToolResult {
  const text = outcome.text ?? json ?? JSON.stringify(outcome.structured);
  return {
    content: [{ type: 'text', text }],
    structuredContent: outcome.structured,
    ...(outcome.isError ? { isError: true } : {}),
  };
}

/** One tool as the server lists and runs it. */
export interface ToolDef {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    /** Whether the tool reaches beyond the server (the dashboard, the sites); listed as true when unset. */
    openWorldHint?: boolean;
  };
  /** Safe mode refuses the tool before it runs (SAFE_MODE_BLOCKED). */
  destructive: boolean;
  run(args: Record<string, unknown>, signal: AbortSignal, context?: CallContext): Promise<ToolOutcome>;
}

/** What one call can reach besides its arguments: the client's user, when the client can ask. */
export interface CallContext {
  /** Absent when the client declared no form elicitation. */
  askUser?: AskUser;
}

/** A question put to the user by the client (MCP form elicitation), and the user's answer. */
export type AskUser = (question: UserQuestion, signal: AbortSignal) => Promise<UserAnswer>;

export interface UserQuestion {
  message: string;
  /** A flat object of primitive fields, as form elicitation allows. */
  requestedSchema: {
    type: 'object';
    properties: Record<string, { type: 'boolean'; title?: string; description?: string; default?: boolean }>;
    required?: string[];
  };
}

export interface UserAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  /** Why no answer came (the client failed or timed out): counted as a cancel. */
  failure?: string;
}
