import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connect } from './helpers.js';

/**
 * tools/call reaches the server through the SDK's fallback handler, which checks the request's
 * shape itself: a malformed call is InvalidParams as the protocol's schema would make it, and a
 * method the server has no handler for stays "Method not found".
 */
describe('the tool server at the protocol level', () => {
  it('refuses a tools/call without a string name or with arguments that are not an object', async () => {
    const server = await connect();
    try {
      const call = (params: Record<string, unknown>) =>
        server.client.request(
          { method: 'tools/call', params: params as { name: string } },
          CallToolResultSchema,
        );
      for (const [params, problem] of [
        [{ name: 7 }, 'params.name must be a string'],
        [{ arguments: {} }, 'params.name must be a string'],
        [{ name: 'svc_get_setup_status', arguments: ['a'] }, 'params.arguments must be an object'],
        [{ name: 'svc_get_setup_status', arguments: null }, 'params.arguments must be an object'],
      ] as const) {
        const refused = await call(params).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(McpError);
        expect(refused).toMatchObject({ code: ErrorCode.InvalidParams });
        expect((refused as McpError).message).toContain(`Invalid tools/call request: ${problem}`);
      }
      const status = await call({ name: 'svc_get_setup_status' });
      expect(status.isError).not.toBe(true);
      expect(status.structuredContent).toMatchObject({ state: 'unconfigured' });
    } finally {
      await server.close();
    }
  });

  it('answers a method it has no handler for with "Method not found"', async () => {
    const server = await connect();
    try {
      const refused = await server.client
        .request({ method: 'sampling/unknown', params: {} }, CallToolResultSchema)
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: ErrorCode.MethodNotFound });
      expect((refused as McpError).message).toMatch(/Method not found$/);
    } finally {
      await server.close();
    }
  });
});
