import type * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { Settings } from '../settings/index.js';
import { CONFIRM, CONFIRMATION_TOKEN, DRY_RUN, USER_CONFIRMED } from './confirmation.js';
import type { ToolDef } from './tool-result.js';

/** Flow parameters a client may look for on a tool: the ability's own and the server's. */
const FLOW_PARAMETERS = [DRY_RUN, CONFIRM, USER_CONFIRMED, CONFIRMATION_TOKEN];

export function helpTemplates(product: string) {
  return [
    {
      uriTemplate: `${product}://help/tool/{tool_name}`,
      name: 'tool help',
      description: 'One tool in detail: its schema, annotations and how it is gated',
      mimeType: 'application/json',
    },
  ];
}

/**
 * The help resources: `<p>://help`, the tools a client may call (the allow/block lists apply, as
 * to the list) with what gates each, and how errors read; `<p>://help/tool/{name}`, one of them.
 * Undefined for any other URI, and for a tool the lists hide (it does not exist for the client).
 */
export function readHelp(
  product: string,
  uri: string,
  visible: readonly ToolDef[],
  server: { settings: Settings },
): string | undefined {
  const { settings } = server;
  if (uri === `${product}://help`) {
    return JSON.stringify(
      {
        compatibility: settings.compatibility,
        gating:
          settings.compatibility === 'vendor'
            ? 'a tool is gated when the catalogue annotates its ability destructive (or not at all)'
            : 'every write is gated except a maintenance refresh (check, sync)',
        safeMode: settings.safeMode,
        requireUserConfirmation: settings.requireUserConfirmation,
        tools: visible.map(summary),
        errors: {
          workflow:
            '{"error":"<CODE>","code":"<CODE>","message","next_action"?,"details":{tool,ability?,reason?,resolution?}}',
          other: '{"error":{"code":<number>,"message","data":{…}},"code":"<CODE>"}',
          read: 'the field `code` names the condition in both shapes',
        },
        toolHelp: `${product}://help/tool/{tool_name}`,
      },
      null,
      2,
    );
  }
  const prefix = `${product}://help/tool/`;
  if (!uri.startsWith(prefix)) return undefined;
  const tool = visible.find((candidate) => candidate.name === uri.slice(prefix.length));
  if (!tool) return undefined;
  return JSON.stringify(
    {
      ...summary(tool),
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    },
    null,
    2,
  );
}

function summary(tool: ToolDef) {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    readOnly: tool.annotations.readOnlyHint,
    gated: tool.destructive,
    declares: FLOW_PARAMETERS.filter((key) => key in properties),
  };
}

export interface CompletionContext {
  product: string;
  fs: typeof nodeFs;
  cwd: string;
  /** The names of the tools a client may see. */
  tools(): Promise<string[]>;
}

interface CompleteParams {
  ref: { type: string; name?: string; uri?: string };
  argument: { name: string; value: string };
}

/** Most values one completion offers (as the MCP spec's examples and the vendor do). */
const MAX_VALUES = 20;

/**
 * Completions: a prompt's `config` from the desired-state files and directories of the working
 * directory, a tool help URI's `tool_name` from the tools a client may see.
 */
export async function complete(params: CompleteParams, context: CompletionContext) {
  const { ref, argument } = params;
  let candidates: string[] = [];
  if (ref.type === 'ref/prompt' && argument.name === 'config') {
    candidates = configCandidates(context.fs, context.cwd, argument.value);
  } else if (
    ref.type === 'ref/resource' &&
    ref.uri === `${context.product}://help/tool/{tool_name}` &&
    argument.name === 'tool_name'
  ) {
    candidates = await context.tools();
  }
  const values = candidates.filter((value) => value.startsWith(argument.value)).sort();
  return { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES };
}

/** YAML files and directories (not hidden) in the directory the typed path is in, inside `cwd`. */
function configCandidates(fs: typeof nodeFs, cwd: string, typed: string): string[] {
  const dir = typed.includes('/') ? typed.slice(0, typed.lastIndexOf('/') + 1) : '';
  const full = nodePath.resolve(cwd, dir);
  if (full !== cwd && !full.startsWith(`${cwd}${nodePath.sep}`)) return [];
  try {
    return fs
      .readdirSync(full, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.'))
      .filter((entry) => entry.isDirectory() || /\.ya?ml$/.test(entry.name))
      .map((entry) => `${dir}${entry.name}${entry.isDirectory() ? '/' : ''}`);
  } catch {
    return [];
  }
}
