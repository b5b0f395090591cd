import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../engine/index.js';
import { callHandler } from './call-path.js';
import { ToolServerCore } from './core.js';
import { userAsker } from './elicitation.js';
import { complete, helpTemplates, readHelp } from './help.js';
import type { ToolServer, ToolServerOptions } from './options.js';
import { promptList, promptText, readResource, resourceList } from './resources.js';
import type { ToolDef } from './tool-result.js';

export { DEFAULT_CALLS_PER_MINUTE, DEFAULT_SESSION_DATA } from './core.js';
export type { ServerLimits, ToolServer, ToolServerOptions } from './options.js';

/**
 * The server's name: `svc-gitops`, or under `--namespace NAME` the name the vendor's own server
 * of that product goes by (`NAME-mcp`), which a client configuration may refer to.
 */
export function serverName(namespace: string | undefined): string {
  return namespace ? `${namespace}-mcp` : 'svc-gitops';
}

/**
 * The tool server (spec §4.3, §5, §7, §8): the dashboard's abilities as tools, and the GitOps
 * tools on the engine, behind one call path (call-path.ts); resources, prompts, a help resource
 * and completions (help.ts). Settings are loaded once, as the CLI loads them; invalid settings
 * throw.
 */
export function createToolServer(options: ToolServerOptions): ToolServer {
  const core = new ToolServerCore(options);
  const server = new Server(
    { name: serverName(options.namespace), version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {}, completions: {} },
    },
  );
  core.listChanged = () => server.sendToolListChanged();
  const visibleTools = async (signal?: AbortSignal) =>
    (await core.tools(signal)).filter((tool) => core.visible(tool.name));

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
    tools: (await visibleTools(extra.signal)).map(listed),
  }));
  // tools/call arrives through the fallback handler: see docs/mcp.md, Decisions.
  server.fallbackRequestHandler = callHandler({
    product: core.product,
    settings: () => core.settings,
    secrets: () => core.secrets,
    rate: core.limits.rate,
    budget: core.limits.budget,
    checkers: core.checkers,
    visible: (name) => core.visible(name),
    findTool: (name, signal) => core.find(name, signal),
    state: () => core.state,
    gitopsNames: core.gitopsNames,
    askUser: (requestId) => userAsker(server, requestId),
  });

  serveReads(server, core, options, visibleTools);

  return {
    server,
    settings: () => core.settings,
    limits: core.limits,
    async close() {
      await server.close();
      await core.close();
    },
  };
}

/** Resources, prompts and completions: reads of the server's own texts and the session's plans. */
function serveReads(
  server: Server,
  core: ToolServerCore,
  options: ToolServerOptions,
  visibleTools: (signal?: AbortSignal) => Promise<ToolDef[]>,
): void {
  const { product } = core;
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: resourceList(product) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: helpTemplates(product),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const text =
      readResource(product, uri, core.plans) ??
      readHelp(product, uri, await visibleTools(extra.signal), core);
    if (text === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
    const entry = resourceList(product).find((resource) => resource.uri === uri);
    return { contents: [{ uri, mimeType: entry?.mimeType ?? 'application/json', text }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: promptList() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const text = promptText(product, request.params.name, request.params.arguments?.config);
    if (text === undefined)
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  });
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => ({
    completion: await complete(request.params, {
      product,
      fs: options.fs,
      cwd: options.cwd,
      tools: async () => (await visibleTools(extra.signal)).map((tool) => tool.name),
    }),
  }));
}

/** A tool as tools/list shows it: its title also among the annotations, an open world unless said. */
function listed(tool: ToolDef) {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema as { type: 'object' },
    annotations: {
      ...(tool.title ? { title: tool.title } : {}),
      ...tool.annotations,
      openWorldHint: tool.annotations.openWorldHint ?? true,
    },
  };
}
