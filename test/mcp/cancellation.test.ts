import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { sandboxStats } from '../e2e/helpers.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { connect, startSmallSandbox } from './helpers.js';

/** Requests the sandbox has answered, all routes together. */
const requestsServed = async (sandbox: RunningSandbox) => (await sandboxStats(sandbox)).requests_total;

describe('a cancelled tool call', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('spec');
  });
  afterAll(() => sandbox.close());

  it('a read cancelled before it starts never reaches the dashboard', async () => {
    const server = await connect({ env: fastClientEnv(sandbox) });
    try {
      await server.client.listTools();
      const before = await requestsServed(sandbox);
      const controller = new AbortController();
      const cancelled = server.client.callTool(
        { name: 'list_updates_v1', arguments: { per_page: 1 } },
        undefined,
        {
          signal: controller.signal,
        },
      );
      controller.abort('the user stopped it');
      await expect(cancelled).rejects.toThrow(/the user stopped it/);
      // A call after it: the server handles calls in order, so the cancelled one would be counted by now.
      expect((await server.call('list_updates_v1', { per_page: 1 })).isError).toBe(false);
      expect((await requestsServed(sandbox)) - before).toBe(1);
    } finally {
      await server.close();
    }
  });
});
