import { describe, expect, it } from 'vitest';
import { matchesSelection, normaliseAddress } from '../../src/plan/index.js';
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
