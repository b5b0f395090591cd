import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../dashboard/helpers/server.js';
import { connect } from './helpers.js';

/**
 * Issue 29, item 2: the tool server's log is a channel like its answers. A dashboard that refuses
 * the login quoting the password HTML-escaped (`&amp;`, `&lt;`, `&#39;`) must leave no piece of it
 * in the warning the server logs.
 */
const PASSWORD = 'Tq4&Lm<Zx\'9 Rk2>Wp"Hs7';
const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

describe("the tool server's log", () => {
  let echo: TestServer;
  beforeAll(async () => {
    echo = await startServer((_req, res) =>
      json(res, 401, { code: 'incorrect_password', message: `bad password ${html(PASSWORD)} for ops` }),
    );
  });
  afterAll(() => echo.close());

  it('masks a password the dashboard quoted back HTML-escaped, whole', async () => {
    const agent = await connect({
      env: {
        SVC_URL: echo.url,
        SVC_ALLOW_HTTP: 'true',
        SVC_USER: 'ops',
        SVC_APP_PASSWORD: PASSWORD,
        SVC_RETRY_BASE_DELAY: '1',
        SVC_RETRY_MAX_DELAY: '5',
      },
    });
    try {
      await agent.client.listTools();
      const log = agent.log.join('\n');
      expect(log).toContain('bad password [redacted] for ops');
      for (let i = 0; i + 8 <= PASSWORD.length; i++) {
        expect(log).not.toContain(html(PASSWORD.slice(i, i + 8)));
        expect(log).not.toContain(html(PASSWORD.slice(i)));
      }
    } finally {
      await agent.close();
    }
  });
});
