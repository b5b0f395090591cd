import { describe, expect, it } from 'vitest';
import { QUIRK_NAMES, resolveQuirks } from '../../src/sandbox/index.js';
import { client, start } from './helpers.js';

describe('profiles and quirk switches', () => {
  it('turns every quirk but the opt-in catalogue on in compat-6.1 and off in spec; overrides win', () => {
    const compat = resolveQuirks('compat-6.1');
    expect(Object.entries(compat).filter(([, on]) => !on)).toEqual([['fullShippedCatalogue', false]]);
    expect(resolveQuirks('compat-6.1', { fullShippedCatalogue: true }).fullShippedCatalogue).toBe(true);
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

  // dashboard-facts §6.2: the 500 and the flat capped list come from REST wrappers over the
  // abilities; on a WordPress without the abilities API the shipped dashboard serves the maps.
  it('compat-6.1 REST listings quirk only while the abilities API exists', async () => {
    const withAbilities = await start({ profile: 'compat-6.1' });
    try {
      const api = client(withAbilities);
      for (const path of ['updates/ignored', 'updates/1/ignored']) {
        const res = await api.rest('GET', path);
        expect([res.status, res.body.code]).toEqual([500, 'ability_invalid_input']);
        expect(res.body.message).toContain('scope is not a valid property');
      }
      expect(Array.isArray((await api.rest('GET', 'updates')).body.data)).toBe(true);
    } finally {
      await withAbilities.close();
    }
    const restOnly = await start({ profile: 'compat-6.1', surfaces: { abilities: false } });
    try {
      const api = client(restOnly);
      const global = await api.rest('GET', 'updates/ignored');
      expect(global.status).toBe(200);
      expect(global.body).toEqual({
        success: 1,
        data: { themes: { astra: { Name: 'Astra', ignored_versions: ['all_versions'] } } },
      });
      const site2 = await api.rest('GET', 'updates/2/ignored');
      expect(Object.keys(site2.body.data.plugins)).toEqual(['elementor/elementor.php']);
      // The global theme ignore (astra) is not in the per-site listing (restSiteIgnoredOmitsGlobal).
      expect(site2.body.data.themes).toBeUndefined();
      const map = await api.rest('GET', 'updates');
      expect(Object.keys(map.body.data)).toEqual(['1', '2', '3']);
      expect(map.body.data['1'].plugins['akismet/akismet.php'].update.new_version).toBe('5.3.7');
    } finally {
      await restOnly.close();
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
