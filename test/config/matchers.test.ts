import { describe, expect, it } from 'vitest';
import { certainlyOverlap, covers, globToRegExp, selectsNothing } from '../../src/config/matchers.js';
import { matchesSelection } from '../../src/plan/index.js';
import type { SiteMatcher } from '../../src/types.js';

const all: SiteMatcher = { type: 'all' };
const id = (n: number): SiteMatcher => ({ type: 'id', id: n });
const domain = (d: string): SiteMatcher => ({ type: 'domain', domain: d });
const glob = (p: string): SiteMatcher => ({ type: 'glob', pattern: p });

describe('static selection reasoning', () => {
  it('globs: * any run, ? one character, the rest literal', () => {
    expect(globToRegExp('acme-*.demo.test').test('acme-shop.demo.test')).toBe(true);
    expect(globToRegExp('acme-*.demo.test').test('acme-shopXdemo.test')).toBe(false);
    expect(globToRegExp('staging-?.demo.test').test('staging-12.demo.test')).toBe(false);
  });

  it('covers only when certain', () => {
    expect(covers(all, id(3))).toBe(true);
    expect(covers(glob('acme-*.demo.test'), domain('acme-blog.demo.test'))).toBe(true);
    expect(covers(glob('acme-*.demo.test'), glob('acme-s*.demo.test'))).toBe(false);
    expect(covers(glob('*'), glob('acme-*'))).toBe(true);
    expect(covers(domain('a.demo.test'), id(1))).toBe(false);
    expect(covers(id(1), all)).toBe(false);
  });

  it('covers as the planner matches: addresses without a leading www.', () => {
    expect(covers(glob('w*'), domain('www.shop.demo.test'))).toBe(false);
    expect(covers(glob('s*'), domain('www.shop.demo.test'))).toBe(true);
    expect(covers(domain('shop.demo.test'), domain('www.shop.demo.test'))).toBe(true);
    expect(covers(glob('www.*'), glob('acme-*'))).toBe(true);
    // Where covers says yes about a domain, the planner selects that site.
    const outers = [
      glob('w*'),
      glob('s*'),
      glob('*.demo.test'),
      domain('shop.demo.test'),
      domain('www.shop.demo.test'),
    ];
    for (const inner of ['www.shop.demo.test', 'shop.demo.test', 'www.www.shop.demo.test']) {
      const site = { id: 1, url: `https://${inner}/`, name: inner, status: 'connected' as const };
      for (const outer of outers) {
        if (!covers(outer, domain(inner))) continue;
        expect(
          matchesSelection(site, { include: [outer], exclude: [] }),
          `${JSON.stringify(outer)} ${inner}`,
        ).toBe(true);
      }
    }
  });

  it('selects nothing only when every include is excluded', () => {
    expect(
      selectsNothing({ include: [id(1), domain('a.demo.test')], exclude: [id(1), glob('*.demo.test')] }),
    ).toBe(true);
    expect(selectsNothing({ include: [id(1), id(2)], exclude: [id(1)] })).toBe(false);
    expect(selectsNothing({ include: [all], exclude: [glob('*')] })).toBe(false);
  });

  it('overlaps when a common site is certain and not excluded on either side', () => {
    const acme = { include: [glob('acme-*.demo.test')], exclude: [] };
    expect(certainlyOverlap(acme, { include: [domain('acme-shop.demo.test')], exclude: [] })).toBe(true);
    expect(certainlyOverlap(acme, { include: [all], exclude: [] })).toBe(true);
    expect(certainlyOverlap(acme, { include: [all], exclude: [glob('acme-*.demo.test')] })).toBe(false);
    expect(certainlyOverlap({ include: [id(4)], exclude: [] }, acme)).toBe(false);
    expect(
      certainlyOverlap(
        { include: [domain('acme-shop.demo.test')], exclude: [] },
        { include: [all], exclude: [domain('acme-shop.demo.test')] },
      ),
    ).toBe(false);
  });
});
