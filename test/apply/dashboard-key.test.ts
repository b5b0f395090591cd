import { describe, expect, it } from 'vitest';
import { dashboardKey, normaliseDashboardUrl } from '../../src/apply/dashboard-key.js';
import { lockDir } from '../../src/apply/lock-dir.js';

describe('the dashboard key of the apply lock', () => {
  it('is one key for every spelling of a loopback dashboard', async () => {
    const spellings = [
      'http://127.0.0.1:8080',
      'http://localhost:8080/',
      'http://LOCALHOST.:8080//',
      'http://[::1]:8080',
      'http://127.0.1.1:8080',
      'http://[::ffff:127.0.0.1]:8080',
      'http://0.0.0.0:8080',
      'http://admin:secret@127.1:8080/?x=1',
    ];
    const keys = new Set(await Promise.all(spellings.map((url) => dashboardKey(url))));
    expect([...keys]).toEqual(['http://loopback:8080']);
  });

  it('keeps scheme, port and path apart, and gives the default port', () => {
    expect(normaliseDashboardUrl('https://Dash.Example.com./blog/')).toBe(
      'https://dash.example.com:443/blog',
    );
    expect(normaliseDashboardUrl('https://dash.example.com:443/blog')).toBe(
      'https://dash.example.com:443/blog',
    );
    expect(normaliseDashboardUrl('http://dash.example.com/blog')).not.toBe(
      normaliseDashboardUrl('https://dash.example.com/blog'),
    );
    expect(normaliseDashboardUrl('https://dash.example.com/a')).not.toBe(
      normaliseDashboardUrl('https://dash.example.com/b'),
    );
  });

  it('counts a name that resolves only to loopback as loopback, and keeps a remote name', async () => {
    const hosts: Record<string, string[]> = {
      'dev.box': ['127.0.1.1', '::1'],
      'dash.example.com': ['203.0.113.7'],
      mixed: ['127.0.0.1', '203.0.113.7'],
    };
    const resolveHost = async (host: string) => hosts[host] ?? Promise.reject(new Error('ENOTFOUND'));
    expect(await dashboardKey('http://dev.box:8080', resolveHost)).toBe('http://loopback:8080');
    expect(await dashboardKey('https://dash.example.com', resolveHost)).toBe('https://dash.example.com:443');
    expect(await dashboardKey('https://mixed', resolveHost)).toBe('https://mixed:443');
    expect(await dashboardKey('https://nowhere.test', resolveHost)).toBe('https://nowhere.test:443');
  });

  it('keeps locks per user: SVC_GITOPS_LOCK_DIR, else XDG_STATE_HOME, else ~/.local/state', () => {
    expect(lockDir({ SVC_GITOPS_LOCK_DIR: '/shared/locks', XDG_STATE_HOME: '/x' }, '/home/u')).toBe(
      '/shared/locks',
    );
    expect(lockDir({ XDG_STATE_HOME: '/x/state' }, '/home/u')).toBe('/x/state/svc-gitops/locks');
    expect(lockDir({ XDG_STATE_HOME: 'relative' }, '/home/u')).toBe('/home/u/.local/state/svc-gitops/locks');
    expect(lockDir({ HOME: '/home/env' }, '/home/u')).toBe('/home/env/.local/state/svc-gitops/locks');
  });
});
