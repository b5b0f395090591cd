import { type AbilityDescription, isRequestLineTooLong, MAX_REQUEST_LINE_BYTES } from '../dashboard/index.js';
import type { AbilityToolOptions } from './ability-options.js';
import { type ToolOutcome, toolError } from './tool-result.js';

/**
 * One call of an ability through the dashboard client, its answer passed on as its JSON text.
 */
export async function call(
  ability: AbilityDescription,
  tool: string,
  input: Record<string, unknown>,
  options: Pick<AbilityToolOptions, 'client'>,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const refusal = queryRefusal(ability, tool, input);
  if (refusal) return refusal;
  const { readonly } = ability.annotations;
  // A read is not sent once its call is cancelled; one already queued or sent runs to its end
  // (within the request timeout) and the SDK drops its answer. Linking the call's signal into
  // the transport costs two abort listeners and a controller per request, 12-24 % of the CPU of
  // reading a 40 KB page (docs/mcp.md, Benchmark); a write keeps it, so a cancelled write that
  // has not gone out never does.
  if (readonly && signal.aborted)
    return toolError('INTERRUPTED', 'the call was cancelled before it was sent', { tool });
  try {
    const { json } = await options.client.runAbilityJson(
      ability.shortName,
      input,
      readonly ? {} : { signal },
    );
    return { answerJson: json };
  } catch (error) {
    // The caller's arguments went into the query: too many of them is theirs to fix.
    const bytes = isRequestLineTooLong(error);
    if (bytes === undefined) throw error;
    return toolError(
      'INVALID_PARAMETER',
      `the arguments make a request line of ${bytes} bytes, over the ${MAX_REQUEST_LINE_BYTES} a web server accepts`,
      {
        tool,
        ability: ability.name,
        resolution: 'ask for fewer sites or items per call, over several calls',
      },
    );
  }
}

/**
 * A read-only or destructive-idempotent ability takes its input in the query, where an empty
 * array cannot be written (and an absent key means something else): refused with what to do.
 */
export function queryRefusal(
  ability: AbilityDescription,
  tool: string,
  input: Record<string, unknown>,
): ToolOutcome | undefined {
  if (ability.method === 'POST') return undefined;
  const empty = Object.entries(input).find(([, value]) => Array.isArray(value) && value.length === 0);
  if (!empty) return undefined;
  return toolError('INVALID_PARAMETER', `${empty[0]} is an empty array`, {
    tool,
    ability: ability.name,
    reason: `${ability.name} takes its input in the URL query, where an empty array cannot be sent`,
    resolution: `leave ${empty[0]} out for its default, or give at least one value`,
  });
}
