import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ToolServer } from './server.js';

/**
 * Serves `tool` over stdio (newline-delimited JSON-RPC on `input`/`output`) and resolves once
 * the client is gone: `input` ended (the client closed the pipe) or `signal` aborted.
 */
export async function serveStdio(
  tool: ToolServer,
  input: Readable,
  output: Writable,
  signal: AbortSignal,
): Promise<{ closed: Promise<void> }> {
  const transport = new StdioServerTransport(input, output);
  const closed = new Promise<void>((resolve) => {
    tool.server.onclose = resolve;
  });
  const end = () => void transport.close();
  input.once('end', end);
  signal.addEventListener('abort', end, { once: true });
  await tool.server.connect(transport);
  return { closed };
}
