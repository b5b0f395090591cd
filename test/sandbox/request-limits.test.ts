import { fetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { basic, start } from './helpers.js';

/** A GET of list-ignored-updates-v1 whose request line is exactly `bytes` long. */
function urlOfLine(sb: RunningSandbox, bytes: number): string {
  const path = '/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run?input[page]=1&pad=';
  const fixed = `GET ${path} HTTP/1.1`.length;
  return `${sb.url}${path}${'x'.repeat(bytes - fixed)}`;
}

describe.each(['spec', 'compat-6.1'] as const)(
  'request size limits of the %s sandbox (as nginx)',
  (profile) => {
    let sb: RunningSandbox | undefined;
    afterEach(async () => {
      await sb?.close();
      sb = undefined;
    });
    const get = (url: string, headers: Record<string, string> = {}) =>
      fetch(url, {
        headers: {
          authorization: basic(sb!.credentials.username, sb!.credentials.applicationPassword),
          ...headers,
        },
      });

    it('serves a request line of 8192 bytes and refuses 8193 with 414 and an HTML page', async () => {
      sb = await start({ profile });
      expect((await get(urlOfLine(sb, 8192))).status).toBe(200);
      const refused = await get(urlOfLine(sb, 8193));
      expect(refused.status).toBe(414);
      expect(refused.headers.get('content-type')).toBe('text/html');
      expect(await refused.text()).toContain('414 Request-URI Too Large');
    });

    it('refuses a header block over the limit with 431', async () => {
      sb = await start({ profile });
      expect(
        (await get(`${sb.url}/wp-json/wp-abilities/v1/abilities`, { 'x-pad': 'y'.repeat(7000) })).status,
      ).toBe(200);
      const refused = await get(`${sb.url}/wp-json/wp-abilities/v1/abilities`, { 'x-pad': 'y'.repeat(9000) });
      expect(refused.status).toBe(431);
    });

    it('takes other limits, and 0 turns a limit off', async () => {
      sb = await start({ profile, requestLimits: { requestLine: 1024 } });
      expect((await get(urlOfLine(sb, 1024))).status).toBe(200);
      expect((await get(urlOfLine(sb, 1025))).status).toBe(414);
      await sb.close();
      sb = await start({ profile, requestLimits: { requestLine: 0, headerBlock: 0 } });
      expect((await get(urlOfLine(sb, 20_000), { 'x-pad': 'y'.repeat(12_000) })).status).toBe(200);
    });
  },
);
