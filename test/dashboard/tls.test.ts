import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { SvcError } from '../../src/errors.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

let h: Harness | undefined;
afterEach(() => h?.close());

describe('certificates', () => {
  it('refuses a self-signed certificate by name, and skipSslVerify works per client only', async () => {
    h = await openHarness({ tls: true });
    expect(h.settings.skipSslVerify).toBe(true);
    const strict = h.client({ skipSslVerify: false, maxRetries: 1 });
    const error = await strict.readLive().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('TLS_ERROR');
    expect((error as SvcError).message).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
    expect((error as SvcError).hint).toContain('skipSslVerify');

    const warnings: string[] = [];
    const relaxed = h.client({}, { onWarning: (m) => warnings.push(m) });
    expect((await relaxed.readLive()).sites).toHaveLength(4);
    expect(warnings.join('\n')).toContain('certificate verification is OFF');
    // Verification is still on for everything else in the process.
    await expect(request(`${h.sandbox.url}/wp-json/wp-abilities/v1/abilities`)).rejects.toThrow();
  });
});

describe('a scheme that does not match the server', () => {
  it('https:// to a plain HTTP port says to check the scheme, not the certificate', async () => {
    h = await openHarness();
    const url = h.sandbox.url.replace(/^http:/, 'https:');
    const error = await h
      .client({ dashboardUrl: url, maxRetries: 1 })
      .readLive()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).not.toBe('TLS_ERROR');
    expect((error as SvcError).hint).toMatch(/does not speak TLS.*scheme of SVC_URL/);
  });

  it('http:// to a TLS port says to try https://', async () => {
    h = await openHarness({ tls: true });
    const url = h.sandbox.url.replace(/^https:/, 'http:');
    const error = await h
      .client({ dashboardUrl: url, allowHttp: true, maxRetries: 1 })
      .readLive()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('CONNECTION_FAILED');
    expect((error as SvcError).hint).toBe(
      `${url} closed the connection without answering: if that port speaks TLS, use https:// in SVC_URL.`,
    );
  });
});
