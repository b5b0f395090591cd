import { afterEach, describe, expect, it } from 'vitest';
import { svcError as failure } from '../helpers/errors.js';
import { type Harness, openHarness } from './helpers/sandbox.js';

let h: Harness | undefined;
afterEach(() => h?.close());

describe.each(['compat-6.1', 'spec'] as const)('authentication against the %s sandbox', (profile) => {
  it('explains a rejected application password (401)', async () => {
    h = await openHarness({ profile });
    const error = await failure(h.client({ applicationPassword: 'wron gpas swor d000' }).readLive());
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain('401');
    expect(error.hint).toContain('case-sensitive');
    expect(error.hint).toContain('application password');
    expect(error.hint).toContain('spaces');
  });

  it('treats the username as case-sensitive and strips HTML from the message', async () => {
    h = await openHarness({ profile });
    const error = await failure(h.client({ username: 'ADMIN' }).readLive());
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).not.toMatch(/<\/?strong>/);
  });

  it('accepts the application password without its spaces', async () => {
    h = await openHarness({ profile });
    const live = await h
      .client({ applicationPassword: h.sandbox.credentials.applicationPassword.replace(/ /g, '') })
      .readLive();
    expect(live.sites).toHaveLength(4);
  });

  it('says the abilities API needs an application password when only a token is set', async () => {
    h = await openHarness({ profile });
    const error = await failure(
      h.client({ username: undefined, applicationPassword: undefined } as never).readLive(),
    );
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain('bearer token');
    expect(error.hint).toContain('SVC_APP_PASSWORD');
  });

  it('reports a missing capability (403) with the administrator hint', async () => {
    h = await openHarness({ profile });
    const error = await failure(
      h.client({ username: 'editor', applicationPassword: 'edit PASS word 0000' }).readLive(),
    );
    expect(error.code).toBe('FORBIDDEN');
    expect(error.hint).toContain('administrator');
  });

  it('explains a rejected REST key', async () => {
    h = await openHarness({ profile });
    // readLive reads the site-wide flags from the REST site records with the key.
    const error = await failure(h.client({ token: 'cs_bad==ck_bad' }).readLive());
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.hint).toContain('SVC_TOKEN');
  });
});
