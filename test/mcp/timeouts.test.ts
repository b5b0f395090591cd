import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { type Connected, connect, startSmallSandbox, untilConnected } from './helpers.js';

/**
 * requestTimeout below a second is enforced on time: undici's own timers tick every 499 ms, so a
 * 200 ms limit fired no sooner than 499 ms and an answer after 450 ms got through. The verdict is
 * which of the two comes first, not how long either took; the catalogue read at connect, under
 * the same limit, is tried until it succeeds (a loaded machine may be slow once).
 */
describe('request timeouts under a second', () => {
  let sandbox: RunningSandbox | undefined;
  let agent: Connected | undefined;
  afterEach(async () => {
    await agent?.close();
    await sandbox?.close();
  });

  it('a 200 ms limit fails a read the dashboard answers after 450 ms', async () => {
    sandbox = await startSmallSandbox('compat-6.1', {
      faults: [{ kind: 'latency', ability: 'list-sites-v1', delayMs: 450 }],
    });
    agent = await connect({
      env: fastClientEnv(sandbox, { SVC_REQUEST_TIMEOUT: '200', SVC_RETRY_MAX_RETRIES: '1' }),
    });
    await untilConnected(agent);
    const listed = await agent.call('list_sites_v1', {});
    expect(listed.isError, listed.text).toBe(true);
    expect(listed.result).toMatchObject({ code: 'TIMEOUT' });
    expect(listed.text).toMatch(/no complete response within 200 ms/);
  });
});
