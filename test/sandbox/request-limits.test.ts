import { fetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { basic, start } from './helpers.js';

/** A GET of list-updates-v1 whose request line is exactly `bytes` long, CRLF included. */
function urlOfLine(sb: RunningSandbox, bytes: number): string {
  const path = '/wp-json/wp-abilities/v1/abilities/svc/list-updates-v1/run?input[page]=1&pad=';
  const fixed = `GET ${path} HTTP/1.1\r\n`.length;
  return `${sb.url}${path}${'x'.repeat(bytes - fixed)}`;
}

/** Value length making `name: value\r\n` exactly `bytes` long. */
const padOfLine = (name: string, bytes: number) => bytes - name.length - 4;
const pad = (name: string, bytes: number) => 'y'.repeat(padOfLine(name, bytes));

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

    it('serves a request line of 8192 bytes with CRLF and refuses 8193 with 414 and an HTML page', async () => {
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

    it('serves a header line of 8192 bytes with CRLF and refuses 8193 with 431', async () => {
      sb = await start({ profile });
      const url = `${sb.url}/wp-json/wp-abilities/v1/abilities`;
      expect((await get(url, { 'x-pad': 'y'.repeat(padOfLine('x-pad', 8192)) })).status).toBe(200);
      expect((await get(url, { 'x-pad': 'y'.repeat(padOfLine('x-pad', 8193)) })).status).toBe(431);
    });

    it('lays the head into four 8 KiB buffers as nginx does: a line moves whole to the next', async () => {
      sb = await start({ profile });
      const url = `${sb.url}/wp-json/wp-abilities/v1/abilities`;
      // Three lines of 8000 bytes take three buffers, whatever else the client sends besides.
      const three = { 'x-a': pad('x-a', 8000), 'x-b': pad('x-b', 8000), 'x-c': pad('x-c', 8000) };
      expect((await get(url, three)).status).toBe(200);
      // 24,000 bytes and a fourth line of 8000 still fit; a fifth needs a fifth buffer.
      expect((await get(url, { ...three, 'x-d': pad('x-d', 8000) })).status).toBe(200);
      expect((await get(url, { ...three, 'x-d': pad('x-d', 8000), 'x-e': pad('x-e', 300) })).status).toBe(
        431,
      );
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
