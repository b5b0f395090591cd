import { describe, expect, it } from 'vitest';
import { resolveTargets } from '../../src/engine/targets.js';
import { firstAmbiguousDomain, matchesSelection } from '../../src/plan/index.js';
import { select, site } from './builders.js';

/**
 * "A domain names one site" is one check: the desired state's selections (createPlan) and the
 * targets (engine/targets.ts) both ask firstAmbiguousDomain, so an address spelled any way a
 * selection matches it is refused the same by both.
 */
const sites = [
  site(2, { url: 'https://www.Shop.example.test/' }),
  site(3, { url: 'https://other.example.test' }),
  site(5, { url: 'http://shop.example.test' }),
];

describe('firstAmbiguousDomain', () => {
  it('finds a domain the listing gives two sites, in any spelling a selection matches', () => {
    for (const spelling of ['shop.example.test', 'SHOP.example.test/', 'https://www.shop.example.test']) {
      const matched = sites.filter((s) =>
        matchesSelection(s, select([{ type: 'domain', domain: spelling }])),
      );
      expect(matched.map((s) => s.id)).toEqual([2, 5]);
      expect(firstAmbiguousDomain(['other.example.test', spelling], sites)).toEqual({
        index: 1,
        siteIds: [2, 5],
      });
    }
    expect(firstAmbiguousDomain(['other.example.test'], sites)).toBeUndefined();
    expect(firstAmbiguousDomain([], sites)).toBeUndefined();
  });

  it('a target refuses the domains the check finds, naming the IDs', () => {
    expect(() => resolveTargets(['3', 'https://WWW.shop.example.test/'], sites)).toThrow(
      'target https://WWW.shop.example.test/ names 2 sites of the dashboard (IDs 2 and 5)',
    );
    expect(resolveTargets(['other.example.test', '5'], sites)).toEqual([3, 5]);
  });
});
