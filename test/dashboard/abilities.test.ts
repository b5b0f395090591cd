import { afterEach, describe, expect, it } from 'vitest';
import { readCatalogue } from '../../src/dashboard/abilities/catalogue.js';
import { type Connection, openConnection } from '../../src/dashboard/connection.js';
import { type Harness, openHarness } from './helpers/sandbox.js';
import { json, startServer, type TestServer, testSettings } from './helpers/server.js';

let h: Harness | undefined;
let conn: Connection | undefined;
afterEach(async () => {
  await conn?.transport.close();
  await h?.close();
  h = undefined;
  conn = undefined;
});

describe.each(['compat-6.1', 'spec'] as const)('the abilities catalogue of the %s sandbox', (profile) => {
  it('chooses the method from the annotations', async () => {
    h = await openHarness({ profile, queueThreshold: 1000 });
    conn = openConnection(h.settings);
    const catalogue = await readCatalogue(conn);
    if (!catalogue) throw new Error('the sandbox should offer the abilities API');
    expect(catalogue.get('svc/list-updates-v1')?.method).toBe('GET');
    expect(catalogue.get('svc/run-updates-v1')?.method).toBe('POST');
    expect(catalogue.get('svc/get-site-updates-v1')?.method).toBe(profile === 'spec' ? 'POST' : 'GET');
    expect(catalogue.get('svc/list-ignored-updates-v1')?.properties.has('page')).toBe(profile === 'spec');
  });
});

describe('the abilities catalogue from a hostile dashboard', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  const catalogueFrom = async (headers: Record<string, string>, items: unknown[] = []) => {
    server = await startServer((_req, res) => json(res, 200, items, headers));
    conn = openConnection(testSettings(server.url));
    return readCatalogue(conn);
  };

  it('refuses an implausible page count before asking for a second page', async () => {
    await expect(catalogueFrom({ 'X-WP-TotalPages': '50000000' })).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('at most 100'),
    });
    expect(server!.requests).toHaveLength(1);
  });

  it('refuses a catalogue shorter than the total it reports', async () => {
    const ability = { name: 'svc/list-sites-v1', meta: { annotations: { readonly: true } } };
    await expect(catalogueFrom({ 'X-WP-Total': '150' }, [ability])).rejects.toMatchObject({
      code: 'INCOMPLETE_READ',
    });
  });
});
