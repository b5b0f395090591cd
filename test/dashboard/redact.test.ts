import { describe, expect, it } from 'vitest';
import { redact } from '../../src/dashboard/transport/failures.js';
import { type FailureContext, statusFailure } from '../../src/dashboard/transport/status.js';

describe('redact: every spelling a server may quote a secret back in', () => {
  const password = 'abcd EFGH ijkl MNOP';
  const token = 'cs_5a4db0c5e0d1e2f3==ck_0f1e2d3c4b5a6978';

  it('masks a secret as given, without spaces, percent-encoded, and each half of a REST key', () => {
    const quoted = [
      password,
      'abcdEFGHijklMNOP',
      encodeURIComponent(password),
      token,
      'cs_5a4db0c5e0d1e2f3',
      'ck_0f1e2d3c4b5a6978',
      encodeURIComponent(token),
    ].join(' | ');
    const out = redact(`echo: ${quoted}`, [password, token]);
    expect(out).not.toMatch(/abcd|EFGH|cs_5a4d|ck_0f1e|%3D%3D/);
    expect(out.match(/\[redacted\]/g)).toHaveLength(7);
  });

  it('leaves text without a secret alone, and ignores secrets too short to mask safely', () => {
    expect(redact('nothing to see', [password, 'ab'])).toBe('nothing to see');
  });
});

describe('a 401 says which credential was offered', () => {
  const context = (auth: FailureContext['auth']): FailureContext => ({
    method: 'GET',
    path: '/wp-json/wp-abilities/v1/abilities',
    what: 'abilities catalogue',
    surface: 'abilities',
    auth,
    secrets: [],
    url: 'https://dashboard.example.test',
    product: 'svc',
  });
  const refused = {
    status: 401,
    headers: {},
    body: { code: 'rest_not_logged_in', message: 'not logged in' },
  };

  it('names missing credentials as missing, not as a bearer token the abilities API refuses', () => {
    const none = statusFailure(refused, context('none'));
    expect(none.code).toBe('AUTH_FAILED');
    expect(none.message).toContain('no credentials were sent');
    expect(none.message).not.toContain('bearer');
    expect(statusFailure(refused, context('bearer')).message).toContain('does not accept a bearer token');
    expect(statusFailure(refused, context('basic')).hint).toContain('SVC_USER and SVC_APP_PASSWORD');
  });

  it("names the variables of the product it serves (the tool server's --namespace)", () => {
    const hint = statusFailure(refused, { ...context('basic'), product: 'acme' }).hint ?? '';
    expect(hint).toContain('Check ACME_USER and ACME_APP_PASSWORD');
    expect(hint).not.toContain('SVC_');
  });
});
