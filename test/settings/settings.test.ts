import * as realFs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILE_KEY_ALIASES, loadSettings, SETTING_ENV } from '../../src/settings/index.js';
import { svcErrorSync as failure } from '../helpers/errors.js';
import { memoryFs } from '../helpers/memory-fs.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

const CWD = '/work/project';
const HOME = '/home/ops';
const USER_FILE = `${HOME}/.config/svc-mcp/settings.json`;
const CWD_FILE = `${CWD}/settings.json`;

function fsWith(files: Record<string, string>) {
  return memoryFs({ [`${CWD}/.keep`]: '', [`${HOME}/.keep`]: '', ...files });
}

function load(files: Record<string, string>, env: Record<string, string | undefined> = {}) {
  return loadSettings({ env, cwd: CWD, fs: fsWith(files), homeDir: HOME });
}

describe('loadSettings', () => {
  it('uses the schema defaults when nothing is configured (safe mode on)', () => {
    const { settings, source } = load({});
    expect(settings).toMatchObject({
      dashboardUrl: '',
      safeMode: true,
      requireUserConfirmation: true,
      allowHttp: false,
      requestTimeout: 30000,
      maxResponseSize: 10485760,
      maxRetries: 4,
      concurrency: 8,
    });
    // No fixed rate and no session budget unless configured: the pace adapts to the dashboard.
    expect(settings.rateLimit).toBeUndefined();
    // No namespace unless configured: the client discovers it (src/dashboard/namespace.ts).
    expect(settings.namespace).toBeUndefined();
    expect(settings.maxSessionData).toBeUndefined();
    expect(source).toEqual(['defaults']);
  });

  it('takes the first file found: ./settings.json shadows the per-user file, with a warning', () => {
    const { settings, warnings, source } = load({
      [CWD_FILE]: JSON.stringify({ dashboardUrl: 'https://cwd.example.com' }),
      [USER_FILE]: JSON.stringify({ dashboardUrl: 'https://home.example.com', rateLimit: 5 }),
    });
    expect(settings.dashboardUrl).toBe('https://cwd.example.com');
    expect(settings.rateLimit).toBeUndefined(); // files are not merged
    expect(source).toContain(`file:${CWD_FILE}`);
    expect(warnings.join('\n')).toContain('working directory');
  });

  it('falls back to ~/.config/svc-mcp/settings.json', () => {
    const { settings } = load({
      [USER_FILE]: JSON.stringify({ dashboardUrl: 'https://home.example.com/', concurrency: 8 }),
    });
    expect(settings.dashboardUrl).toBe('https://home.example.com');
    expect(settings.concurrency).toBe(8);
  });

  it('lets the environment beat the file and treats empty variables as unset', () => {
    const { settings, source } = load(
      {
        [USER_FILE]: JSON.stringify({
          dashboardUrl: 'https://file.example.com',
          rateLimit: 10,
          safeMode: false,
        }),
      },
      { SVC_URL: 'https://env.example.com', SVC_RATE_LIMIT: '', SVC_SAFE_MODE: 'on', SVC_CONCURRENCY: '3' },
    );
    expect(settings.dashboardUrl).toBe('https://env.example.com');
    expect(settings.rateLimit).toBe(10);
    expect(settings.safeMode).toBe(true);
    expect(settings.concurrency).toBe(3);
    expect(source).toEqual([
      'defaults',
      `file:${USER_FILE}`,
      'env:SVC_URL',
      'env:SVC_SAFE_MODE',
      'env:SVC_CONCURRENCY',
    ]);
  });

  it.each([
    ['true', true],
    ['1', true],
    ['YES', true],
    ['on', true],
    ['false', false],
    ['0', false],
    ['no', false],
    ['Off', false],
  ])('reads boolean %s as %s', (raw, value) => {
    expect(load({}, { SVC_ALLOW_HTTP: raw }).settings.allowHttp).toBe(value);
  });

  it('lets overrides beat the environment', () => {
    const loaded = loadSettings({
      env: { SVC_RATE_LIMIT: '5' },
      cwd: CWD,
      fs: fsWith({}),
      homeDir: HOME,
      overrides: { rateLimit: 0 },
    });
    expect(loaded.settings.rateLimit).toBe(0);
    expect(loaded.source.at(-1)).toBe('overrides');
  });

  it('names the file and the key for unknown keys and wrong types', () => {
    const unknown = failure(() =>
      load({ [USER_FILE]: JSON.stringify({ dashboardURL: 'https://x.example.com' }) }),
    );
    expect(unknown.code).toBe('SETTINGS_INVALID');
    expect(unknown.message).toContain(USER_FILE);
    expect(unknown.message).toContain('"dashboardURL"');
    const wrongType = failure(() => load({ [CWD_FILE]: JSON.stringify({ rateLimit: '60' }) }));
    expect(wrongType.message).toContain(CWD_FILE);
    expect(wrongType.message).toContain('rateLimit');
    const fraction = failure(() => load({ [CWD_FILE]: JSON.stringify({ requestTimeout: 1.5 }) }));
    expect(fraction.message).toContain('requestTimeout');
  });

  it('lists every problem of a settings file at once, with the key each unknown one meant', () => {
    const file = { user: 'ops', appPasword: 'x', dashbordUrl: 'https://x.example.com', rateLimit: '60' };
    const error = failure(() => load({ [CWD_FILE]: JSON.stringify(file) }));
    expect(error.message).toContain('unknown key "user" (did you mean "username"?)');
    expect(error.message).toContain('unknown key "appPasword" (did you mean "applicationPassword"?)');
    expect(error.message).toContain('unknown key "dashbordUrl" (did you mean "dashboardUrl"?)');
    expect(error.message).toContain('rateLimit');
    expect(error.message).not.toContain('"x"');
    const far = failure(() => load({ [CWD_FILE]: JSON.stringify({ colour: 'blue' }) }));
    expect(far.message).toMatch(/unknown key "colour"$/);
  });

  it('warns of a set SVC_* variable one typo from a setting (never its value), and of nothing else', () => {
    const { warnings, settings } = load(
      {},
      { SVC_USER: 'ops', SVC_APP_PASWORD: 'hunter2-secret', SVC_URLL: 'https://x.example.com' },
    );
    expect(settings.applicationPassword).toBeUndefined();
    expect(warnings).toEqual([
      'SVC_APP_PASWORD is not a setting and is ignored: did you mean SVC_APP_PASSWORD?',
      'SVC_URLL is not a setting and is ignored: did you mean SVC_URL?',
    ]);
    const quiet = load({}, { SVC_GITOPS_DEBUG: '1', SVC_OTHER_TOOL_HOME: '/x', SVC_TOKN: '' });
    expect(quiet.warnings).toEqual([]);
  });

  it('rejects a __proto__ key without polluting anything', () => {
    const error = failure(() => load({ [USER_FILE]: '{"__proto__": {"polluted": true}, "rateLimit": 1}' }));
    expect(error.code).toBe('SETTINGS_INVALID');
    expect(error.message).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('allows _comment and rejects a non-object root and invalid JSON', () => {
    expect(load({ [USER_FILE]: JSON.stringify({ _comment: 'ops', rateLimit: 1 }) }).settings.rateLimit).toBe(
      1,
    );
    expect(failure(() => load({ [USER_FILE]: '[1,2]' })).message).toContain('JSON object');
    const broken = failure(() => load({ [USER_FILE]: '{"rateLimit": 1,' }));
    expect(broken.message).toContain('not valid JSON');
    expect(broken.message).toContain(USER_FILE);
  });

  it('never quotes the file in a JSON syntax error: the text there may be a password', () => {
    for (const text of [
      '{"applicationPassword": abcd EFGH ijkl MNOP}',
      '{"applicationPassword": \'abcd EFGH ijkl MNOP\'}',
      '{"applicationPassword": "abcd EFGH ijkl MNOP" "x": 1}',
    ]) {
      const error = failure(() => load({ [USER_FILE]: text }));
      expect(error.message).toContain('not valid JSON');
      expect(error.message).not.toMatch(/abcd|EFGH|MNOP/);
    }
  });

  it('names the variable for bad environment values, never the value', () => {
    const bad = failure(() => load({}, { SVC_SKIP_SSL_VERIFY: 'maybe-secret' }));
    expect(bad.message).toContain('SVC_SKIP_SSL_VERIFY');
    expect(bad.message).not.toContain('maybe-secret');
    expect(failure(() => load({}, { SVC_RATE_LIMIT: '12abc' })).message).toContain('SVC_RATE_LIMIT');
    expect(failure(() => load({}, { SVC_RETRY_MAX_RETRIES: '9' })).message).toContain(
      'SVC_RETRY_MAX_RETRIES',
    );
  });

  it('refuses http:// without allowHttp and warns with it', () => {
    const refused = failure(() => load({}, { SVC_URL: 'http://dash.example.com' }));
    expect(refused.message).toContain('plain text');
    const allowed = load({}, { SVC_URL: 'http://dash.example.com', SVC_ALLOW_HTTP: 'true' });
    expect(allowed.settings.dashboardUrl).toBe('http://dash.example.com');
    expect(allowed.warnings.join('\n')).toContain('plain HTTP');
    // Loopback (the sandbox) needs allowHttp too, but the credentials never leave the machine.
    for (const url of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']) {
      expect(failure(() => load({}, { SVC_URL: url })).message).toContain('plain text');
      expect(load({}, { SVC_URL: url, SVC_ALLOW_HTTP: 'true' }).warnings).toEqual([]);
    }
    const lookalike = load({}, { SVC_URL: 'http://127.0.0.1.example.com', SVC_ALLOW_HTTP: 'true' });
    expect(lookalike.warnings.join('\n')).toContain('plain HTTP');
  });

  it('refuses URLs carrying credentials and warns about token-only setups', () => {
    expect(failure(() => load({}, { SVC_URL: 'https://u:p@dash.example.com' })).code).toBe(
      'SETTINGS_INVALID',
    );
    const { warnings } = load(
      {},
      { SVC_URL: 'https://d.example.com', SVC_SKIP_SSL_VERIFY: '1', SVC_TOKEN: 'abc==def' },
    );
    // skipSslVerify is warned of once, by the dashboard client when a command connects.
    expect(warnings.join('\n')).not.toMatch(/skipSslVerify/);
    expect(warnings.join('\n')).toMatch(/application password/);
  });

  it('every refusal of the URL or the file says what to do: other schemes, an unreadable file', () => {
    const scheme = failure(() => load({}, { SVC_URL: 'ftp://dash.example.com' }));
    expect(scheme.code).toBe('SETTINGS_INVALID');
    expect(scheme.message).toContain('ftp:');
    expect(scheme.hint).toMatch(/https:\/\//);
    const dir = tempDirForFile('svc-settings-', realFs.realpathSync('/tmp'));
    realFs.mkdirSync(`${dir}/settings.json`);
    const unreadable = failure(() => loadSettings({ env: {}, cwd: dir, fs: realFs, homeDir: dir }));
    expect(unreadable.code).toBe('SETTINGS_INVALID');
    expect(unreadable.message).toContain(`${dir}/settings.json`);
    expect(unreadable.message).toContain('EISDIR');
    expect(unreadable.hint).toMatch(/readable JSON file/);
  });

  it('keeps the TypeScript type, the env table and the schema in step', () => {
    const schema = JSON.parse(
      realFs.readFileSync(new URL('../../schemas/settings.schema.json', import.meta.url), 'utf8'),
    );
    const schemaKeys = Object.keys(schema.properties)
      .filter((k) => k !== '_comment' && k !== 'dashboards' && !(k in FILE_KEY_ALIASES))
      .sort();
    expect(Object.keys(SETTING_ENV).sort()).toEqual(schemaKeys);
    const { settings } = load(
      {},
      {
        SVC_URL: 'https://d.example.com',
        SVC_USER: 'u',
        SVC_APP_PASSWORD: 'p',
        SVC_TOKEN: 't',
        SVC_RATE_LIMIT: '60',
        SVC_MAX_SESSION_DATA: '1000',
        SVC_HTTP_TOKEN: 'h'.repeat(16),
        SVC_FEED_API_KEY: 'f',
        SVC_WEBHOOK_URL: 'https://hooks.example.com/x',
        SVC_NAMESPACE: 'svc',
        SVC_HISTORY_FILE: 'history.jsonl',
      },
    );
    expect(Object.keys(settings).sort()).toEqual(schemaKeys);
  });
});
