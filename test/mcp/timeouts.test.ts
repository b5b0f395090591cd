import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { type Connected, connect, startSmallSandbox } from './helpers.js';

/**
 * requestTimeout below a second is enforced on time: undici's own timers tick every ~0.5 s and
 * let a 750 ms answer through a 250 ms limit. The margins are wide (100 ms against 450 ms of
 * latency): the verdict is which of the two comes first, not how long either took.
 */
describe('request timeouts under a second', () => {
  let sandbox: RunningSandbox | undefined;
  let agent: Connected | undefined;
  afterEach(async () => {
    await agent?.close();
    await sandbox?.close();
  });

  it('a 100 ms limit fails a read the dashboard answers after 450 ms', async () => {
    sandbox = await startSmallSandbox('compat-6.1', {
      faults: [{ kind: 'latency', ability: 'list-sites-v1', delayMs: 450 }],
    });
    agent = await connect({
      env: fastClientEnv(sandbox, { SVC_REQUEST_TIMEOUT: '100', SVC_RETRY_MAX_RETRIES: '1' }),
    });
    const listed = await agent.call('list_sites_v1', {});
    expect(listed.isError, listed.text).toBe(true);
    expect(listed.text).toMatch(/no complete response within 100 ms/);
  });
});
