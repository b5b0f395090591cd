/**
 * The tool server: the dashboard's abilities and the GitOps plan/apply as MCP tools, with the
 * interface's preview → token → confirm flow, safe mode, setup mode and limits.
 */

export { serverSecrets, toolServerClient } from './dashboard-client.js';
export { type HttpOptions, MIN_TOKEN_LENGTH, type RunningHttp, serveHttp } from './http.js';
export {
  createToolServer,
  type ServerLimits,
  serverName,
  type ToolServer,
  type ToolServerOptions,
} from './server.js';
export { serveStdio } from './stdio.js';
export { TOKEN_LIFETIME_MS } from './tokens.js';
