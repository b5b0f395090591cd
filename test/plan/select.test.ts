import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesSelection, normaliseAddress } from '../../src/plan/index.js';
import { compileSelections } from '../../src/plan/select.js';
import type { SiteMatcher } from '../../src/types.js';
import { select, site } from './builders.js';

const shop = site(7, { url: 'https://www.Shop.Example.test/' });
const blog = site(8, { url: 'http://example.test/blog/' });

describe('normaliseAddress', () => {
  it.each([
    ['https://WWW.Example.test/', 'example.test'],
    ['example.test', 'example.test'],
    ['http://example.test//', 'example.test'],
    ['https://example.test/blog/', 'example.test/blog'],
    ['  Example.TEST ', 'example.test'],
  ])('%s → %s', (input, expected) => expect(normaliseAddress(input)).toBe(expected));
});

describe('matchesSelection', () => {
  it('matches domains ignoring case, scheme, www and trailing slash', () => {
    expect(matchesSelection(shop, select([{ type: 'domain', domain: 'shop.example.test' }]))).toBe(true);
    expect(matchesSelection(shop, select([{ type: 'domain', domain: 'http://SHOP.example.test' }]))).toBe(
      true,
    );
    expect(matchesSelection(shop, select([{ type: 'domain', domain: 'example.test' }]))).toBe(false);
  });

  it('keeps a subdirectory as part of the address', () => {
    expect(matchesSelection(blog, select([{ type: 'domain', domain: 'example.test/blog' }]))).toBe(true);
    expect(matchesSelection(blog, select([{ type: 'domain', domain: 'example.test' }]))).toBe(false);
  });

  it('matches host globs with * and ?', () => {
    expect(matchesSelection(shop, select([{ type: 'glob', pattern: '*.example.test' }]))).toBe(true);
    expect(matchesSelection(shop, select([{ type: 'glob', pattern: 'sho?.example.test' }]))).toBe(true);
    expect(matchesSelection(shop, select([{ type: 'glob', pattern: 'sh?.example.test' }]))).toBe(false);
    expect(matchesSelection(shop, select([{ type: 'glob', pattern: 'shop.example.(test)' }]))).toBe(false);
  });

  it('needs an include match and no exclude match', () => {
    expect(matchesSelection(shop, select([]))).toBe(false);
    expect(matchesSelection(shop, select([{ type: 'all' }], [{ type: 'id', id: 7 }]))).toBe(false);
    expect(
      matchesSelection(
        shop,
        select([
          { type: 'id', id: 7 },
          { type: 'id', id: 9 },
        ]),
      ),
    ).toBe(true);
    expect(matchesSelection(blog, select([{ type: 'all' }], [{ type: 'glob', pattern: 'shop.*' }]))).toBe(
      true,
    );
  });
});

describe('compileSelections: many selections asked at once', () => {
  const sites = [
    site(1, { url: 'https://www.a.test/' }),
    site(2, { url: 'https://b.test/' }),
    site(3, { url: 'https://a.test/blog/' }),
    site(4, { url: 'https://c.test/' }),
  ];
  const matcher = fc.oneof(
    fc.constant<SiteMatcher>({ type: 'all' }),
    fc.integer({ min: 1, max: 5 }).map((id): SiteMatcher => ({ type: 'id', id })),
    fc
      .constantFrom('a.test', 'WWW.A.test', 'https://b.test/', 'a.test/blog', 'd.test')
      .map((domain): SiteMatcher => ({ type: 'domain', domain })),
    fc.constantFrom('*.test', '?.test', 'a.*').map((pattern): SiteMatcher => ({ type: 'glob', pattern })),
  );
  const selection = fc.record({
    include: fc.array(matcher, { maxLength: 3 }),
    exclude: fc.array(matcher, { maxLength: 2 }),
  });

  it('answers exactly the positions of the selections that select the site, ascending', () => {
    fc.assert(
      fc.property(fc.array(selection, { maxLength: 12 }), (selections) => {
        const selecting = compileSelections(selections);
        for (const s of sites) {
          const expected = selections.flatMap((each, i) => (matchesSelection(s, each) ? [i] : []));
          expect(selecting(s)).toEqual(expected);
        }
      }),
      { numRuns: 500, seed: 2026 },
    );
  });
});
