import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/settings/index.js';
import { svcErrorSync as failure } from '../helpers/errors.js';
import { memoryFs } from '../helpers/memory-fs.js';

const CWD = '/work/project';
const HOME = '/home/ops';

function load(
  file: Record<string, unknown> | undefined,
  env: Record<string, string | undefined> = {},
  toolServer = true,
) {
  const product = 'mainwp';
  const files: Record<string, string> = { [`${CWD}/.keep`]: '', [`${HOME}/.keep`]: '' };
  if (file) files[`${HOME}/.config/${product}-mcp/settings.json`] = JSON.stringify(file);
  return loadSettings({ env, cwd: CWD, fs: memoryFs(files), homeDir: HOME, product, toolServer });
}

/** A settings file as the dashboard vendor's tool server documents it. */
const VENDOR_FILE = {
  dashboardUrl: 'https://dashboard.example.com/',
  username: 'admin',
  appPassword: 'abcd EFGH ijkl MNOP qrst UVWX',
  apiToken: 'secret==key',
  allowedTools: ['list_sites_v1', 'get_site_v1'],
  blockedTools: ['delete_site_v1'],
  schemaVerbosity: 'compact',
  responseFormat: 'pretty',
  abilityNamespaces: ['mainwp'],
  retryEnabled: true,
  maxRetries: 2,
  safeMode: false,
  _comment: 'written for the vendor',
};

describe("the dashboard vendor's settings keys and variables", () => {
  it('reads a vendor settings file with the same meaning', () => {
    const { settings } = load(VENDOR_FILE);
    expect(settings).toMatchObject({
      dashboardUrl: 'https://dashboard.example.com',
      applicationPassword: 'abcd EFGH ijkl MNOP qrst UVWX',
      token: 'secret==key',
      allowedTools: 'list_sites_v1,get_site_v1',
      blockedTools: 'delete_site_v1',
      schemaVerbosity: 'compact',
      responseFormat: 'pretty',
      namespace: 'mainwp',
      maxRetries: 2,
      safeMode: false,
    });
    expect(settings).not.toHaveProperty('appPassword');
    expect(settings).not.toHaveProperty('apiToken');
  });

  it("reads the vendor's variables under its product name", () => {
    const { settings, warnings } = load(undefined, {
      MAINWP_URL: 'https://dashboard.example.com',
      MAINWP_USER: 'admin',
      MAINWP_APP_PASSWORD: 'pw',
      MAINWP_MAX_RETRIES: '3',
      MAINWP_SCHEMA_VERBOSITY: 'compact',
      MAINWP_RESPONSE_FORMAT: 'pretty',
      MAINWP_ABILITY_NAMESPACES: 'mainwp,acme',
      MAINWP_ALLOWED_TOOLS: 'list_sites_v1',
    });
    expect(settings).toMatchObject({
      maxRetries: 3,
      schemaVerbosity: 'compact',
      responseFormat: 'pretty',
      namespace: 'mainwp',
      allowedTools: 'list_sites_v1',
    });
    expect(warnings.join('\n')).toMatch(
      /MAINWP_ABILITY_NAMESPACES names 2 namespaces.*uses the first \(mainwp\)/,
    );
    expect(warnings.join('\n')).not.toMatch(/is not a setting/);
  });

  it('MAINWP_RETRY_ENABLED=false makes every request one attempt', () => {
    const { settings } = load(undefined, { MAINWP_RETRY_ENABLED: 'false', MAINWP_MAX_RETRIES: '5' });
    expect(settings.maxRetries).toBe(1);
  });

  it('a setting under both names is an error naming both; ours keep working', () => {
    expect(failure(() => load({ appPassword: 'a', applicationPassword: 'b' })).message).toMatch(
      /appPassword and applicationPassword are one setting/,
    );
    expect(
      failure(() => load(undefined, { MAINWP_MAX_RETRIES: '2', MAINWP_RETRY_MAX_RETRIES: '3' })).message,
    ).toMatch(/MAINWP_MAX_RETRIES and MAINWP_RETRY_MAX_RETRIES are one setting/);
    const { settings } = load({ applicationPassword: 'b', allowedTools: 'a,b', namespace: 'mainwp' });
    expect(settings).toMatchObject({ applicationPassword: 'b', allowedTools: 'a,b' });
  });

  it('compatibility "vendor" turns the tool server\'s safe mode off unless set, never the CLI\'s', () => {
    expect(load({ compatibility: 'vendor' }).settings.safeMode).toBe(false);
    expect(load({ compatibility: 'vendor' }, {}, false).settings.safeMode).toBe(true);
    expect(load({ compatibility: 'vendor', safeMode: true }).settings.safeMode).toBe(true);
    expect(load({}).settings.safeMode).toBe(true);
    expect(failure(() => load({ compatibility: 'mainwp' })).message).toMatch(/compatibility/);
  });
});
