import { describe, expect, it } from 'vitest';
import { QUIRK_NAMES, resolveQuirks } from '../../src/sandbox/index.js';
import { client, start } from './helpers.js';

describe('profiles and quirk switches', () => {
  it('turns every quirk on in compat-6.1 and off in spec; overrides win', () => {
    expect(Object.values(resolveQuirks('compat-6.1')).every(Boolean)).toBe(true);
    expect(Object.values(resolveQuirks('spec')).some(Boolean)).toBe(false);
    const mixed = resolveQuirks('compat-6.1', { emptyMapAsArray: false });
    expect(mixed.emptyMapAsArray).toBe(false);
    expect(mixed.restListFlatCapped).toBe(true);
    expect(QUIRK_NAMES).toContain('restKeyPermission401');
  });

  it('switches one quirk without touching the others', async () => {
    const sb = await start({ quirks: { restListFlatCapped: false, siteNotFound403: false } });
    const api = client(sb);
    try {
      const map = await api.rest('GET', 'updates');
      expect(Object.keys(map.body.data)).toEqual(['1', '2', '3']);
      expect(map.body.data['2'].wp).toEqual([]);
      const notFound = await api.ability('get-site-updates-v1', { site_id_or_domain: 42 });
      expect(notFound.status).toBe(404);
      expect((await api.rest('GET', 'updates/ignored')).status).toBe(500);
    } finally {
      await sb.close();
    }
  });

  it('a spec sandbox with getSiteUpdatesIsGet on reads get-site-updates with GET', async () => {
    const sb = await start({ profile: 'spec', quirks: { getSiteUpdatesIsGet: true } });
    try {
      const res = await client(sb).ability('get-site-updates-v1', { site_id_or_domain: 1 });
      expect(res.status).toBe(200);
      expect(res.body.summary.total).toBe(5);
    } finally {
      await sb.close();
    }
  });
});
