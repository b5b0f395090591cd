import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AskUser } from './tool-result.js';

/**
 * How long the server waits for the user's answer. A person reads a plan: the SDK's 60 s
 * default would cancel a careful reader; past this the question counts as cancelled.
 */
export const ANSWER_WAIT_MS = 10 * 60_000;

/**
 * The client's user, asked through MCP form elicitation within the tool call `requestId` (so a
 * Streamable HTTP client gets the question on that call's stream); undefined when the client
 * declared no form elicitation at initialize. A failed or timed-out question is a cancel: the
 * caller must never read silence as consent.
 */
export function userAsker(server: Server, requestId: string | number): AskUser | undefined {
  if (!server.getClientCapabilities()?.elicitation?.form) return undefined;
  return async (question, signal) => {
    try {
      const answer = await server.elicitInput(
        { mode: 'form', message: question.message, requestedSchema: question.requestedSchema },
        { relatedRequestId: requestId, signal, timeout: ANSWER_WAIT_MS },
      );
      return { action: answer.action, ...(answer.content ? { content: answer.content } : {}) };
    } catch (error) {
      if (signal.aborted) throw error;
      return { action: 'cancel', failure: error instanceof Error ? error.message : String(error) };
    }
  };
}
