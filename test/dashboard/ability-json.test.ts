import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchSettings } from '../../scripts/bench/harness.js';
import { createDashboardClient } from '../../src/dashboard/index.js';
import {
  DEFAULT_CREDENTIALS,
  parseFleet,
  type RunningSandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { ECHOING_FLEET, FRONT_END_SECRET } from '../helpers/echoing-fleet.js';

const { applicationPassword, token } = DEFAULT_CREDENTIALS;

describe('runAbilityJson: an answer as JSON text for a front end that passes it on', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ fleet: parseFleet(ECHOING_FLEET, 'echoing.yaml'), profile: 'spec' });
  });
  afterAll(() => sandbox.close());

  const direct = async (query: string) => {
    const { username } = sandbox.credentials;
    const response = await fetch(
      `${sandbox.url}/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run?${query}`,
      {
        headers: {
          authorization: `Basic ${Buffer.from(`${username}:${applicationPassword}`).toString('base64')}`,
        },
      },
    );
    return response.text();
  };

  it('is the dashboard’s own bytes when no credential was masked in them', async () => {
    const client = createDashboardClient(benchSettings({ url: sandbox.url, env: sandbox.env() }));
    try {
      // Page 4 of one entry per page: site 4, which quotes nothing.
      const { answer, json } = await client.runAbilityJson('list-updates-v1', { per_page: 1, page: 4 });
      expect(json).toBe(await direct('input[per_page]=1&input[page]=4'));
      expect(JSON.parse(json)).toEqual(answer);
    } finally {
      await client.close();
    }
  });

  it('masks the sent password, a configured token never sent, and a front end’s own secret', async () => {
    const settings = { ...benchSettings({ url: sandbox.url, env: sandbox.env() }), token };
    const client = createDashboardClient(settings, { alsoMask: [FRONT_END_SECRET] });
    try {
      const { answer, json } = await client.runAbilityJson('list-updates-v1', { per_page: 10 });
      const raw = await direct('input[per_page]=10');
      for (const secret of [applicationPassword, token, FRONT_END_SECRET]) {
        expect(raw).toContain(secret);
        expect(json).not.toContain(secret);
        expect(JSON.stringify(answer)).not.toContain(secret);
      }
      // The text is the masked answer serialised, never the raw bytes.
      expect(JSON.parse(json)).toEqual(answer);
      const names = (answer as { updates: Array<{ name: string }> }).updates.map((entry) => entry.name);
      expect(names.slice(0, 3)).toEqual(['Shop [redacted]', 'Blog [redacted]', 'Docs [redacted]']);
    } finally {
      await client.close();
    }
  });
});
