import { describe, expect, it } from 'vitest';
import { FleetError, generateFleet, parseFleet } from '../../src/sandbox/index.js';
import { demoFleet } from './helpers.js';

describe('fleet files', () => {
  it('the demo fleet has the 25 documented sites with a realistic mix', () => {
    const fleet = demoFleet();
    expect(fleet.sites).toHaveLength(25);
    expect(fleet.sites.every((s) => /^https:\/\/[a-z0-9-]+\.demo\.test\/$/.test(s.url))).toBe(true);
    expect(fleet.sites.find((s) => s.url.includes('legacy-1'))?.offline).toBe(true);
    expect(fleet.sites.find((s) => s.url.includes('legacy-2'))?.suspended).toBe(true);
    expect(
      fleet.sites.filter((s) => s.core.current === '6.7.2' && s.core.new === '6.8.3').length,
    ).toBeGreaterThanOrEqual(1);
    expect(fleet.sites.find((s) => s.url.includes('acme-shop'))?.ignores.plugins.map((i) => i.slug)).toEqual([
      'woocommerce/woocommerce.php',
    ]);
    const globex = fleet.sites.filter((s) => s.url.includes('globex'));
    expect(globex.every((s) => s.ignores.plugins.some((i) => i.slug === 'elementor/elementor.php'))).toBe(
      true,
    );
    expect(fleet.globalIgnores.plugins).toHaveLength(1);
  });

  it('keeps version text such as 1.10 as written', () => {
    const fleet = parseFleet('sites:\n  - url: https://a.test\n    themes:\n      astra: 1.10 -> 1.20\n');
    expect(fleet.sites[0]?.themes[0]).toMatchObject({ version: '1.10', update: '1.20' });
    expect(fleet.sites[0]?.url).toBe('https://a.test/');
  });

  it('takes a repeated URL marked shares_url, as a dashboard lists a site added twice', () => {
    const fleet = parseFleet(
      'sites:\n  - url: https://a.test/\n  - url: https://a.test/\n    shares_url: true\n',
    );
    expect(fleet.sites.map((s) => [s.id, s.url])).toEqual([
      [1, 'https://a.test/'],
      [2, 'https://a.test/'],
    ]);
  });

  it.each([
    [
      'sites:\n  - url: https://a.test/\n    plugins:\n      akismet: 1.0\n',
      'f.yaml:4: plugin slug "akismet" must look like <folder>/<file>.php',
    ],
    ['sites:\n  - url: https://a.test/\n    plugns: {}\n', 'f.yaml:3: unknown key `plugns`'],
    ['sites:\n  - url: https://a.test/\n  - url: https://a.test/\n', 'f.yaml:3: duplicate site url'],
    ['sites:\n  - url: ftp://a.test/\n', 'f.yaml:2: `url` must be an http(s) URL'],
    ['sites: [\n', 'f.yaml:2:'],
    ['- 1\n', 'f.yaml:1: a fleet file must be a mapping'],
  ])('rejects bad input with file:line (%#)', (text, message) => {
    expect(() => parseFleet(text, 'f.yaml')).toThrow(FleetError);
    expect(() => parseFleet(text, 'f.yaml')).toThrow(message);
  });

  it('flags the given percent of the sites, kinds in turn, and leaves the rest of the fleet alone', () => {
    const plain = generateFleet({ sites: 400, pendingPerSite: 6, seed: 9 });
    const flagged = generateFleet({ sites: 400, pendingPerSite: 6, seed: 9, flaggedPercent: 5 });
    const flags = flagged.sites.filter((s) => s.flags.core || s.flags.plugins || s.flags.themes);
    expect(flags).toHaveLength(20);
    expect(flags.slice(0, 3).map((s) => Object.entries(s.flags).filter(([, on]) => on)[0]?.[0])).toEqual([
      'plugins',
      'themes',
      'core',
    ]);
    const unflag = (s: (typeof flagged.sites)[number]) => ({
      ...s,
      flags: { core: false, plugins: false, themes: false },
    });
    expect(JSON.stringify(flagged.sites.map(unflag))).toBe(JSON.stringify(plain.sites));
  });

  it('generates the same fleet for the same seed, about pendingPerSite pending per site', () => {
    const a = generateFleet({ sites: 400, pendingPerSite: 6, ignoredPerSite: 2, seed: 9 });
    const b = generateFleet({ sites: 400, pendingPerSite: 6, ignoredPerSite: 2, seed: 9 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(generateFleet({ sites: 400, pendingPerSite: 6, seed: 10 }))).not.toBe(
      JSON.stringify(a),
    );
    const visible = a.sites.reduce((sum, site) => {
      const ignored = new Set(site.ignores.plugins.map((i) => i.slug));
      const items = [...site.plugins, ...site.themes].filter((i) => i.update && !ignored.has(i.slug)).length;
      return sum + items + site.translations.length + (site.core.new ? 1 : 0);
    }, 0);
    expect(visible / a.sites.length).toBeGreaterThan(5.4);
    expect(visible / a.sites.length).toBeLessThan(6.6);
    expect(a.sites.every((s) => s.ignores.plugins.length === 2)).toBe(true);
  });
});
