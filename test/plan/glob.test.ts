import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob, compileGlobs } from '../../src/plan/glob.js';
import { globMatches } from './naive-glob.js';

describe('compileGlob', () => {
  it.each([
    ['woocommerce/*', 'woocommerce/woocommerce.php', true],
    ['woo*', 'woocommerce-payments/woocommerce-payments.php', true],
    ['plugin-3*', 'plugin-30/plugin-30.php', true],
    ['*.php', 'hello.php', true],
    ['?ello.php', 'hello.php', true],
    ['hello.php', 'hello-php', false],
    ['a.b', 'axb', false],
    ['[ab]/x.php', '[ab]/x.php', true],
    ['[ab]/x.php', 'a/x.php', false],
    ['(x)|y+{1}^$\\', '(x)|y+{1}^$\\', true],
    ['*', '', true],
    ['?', '', false],
  ])('%s on %s → %s', (pattern, value, expected) => {
    expect(compileGlob(pattern)(value)).toBe(expected);
  });

  it('agrees with a naive matcher on any pattern and value', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', '-', '.', '/', '*', '?', '[', '\\', '('),
      maxLength: 8,
    });
    fc.assert(
      fc.property(
        text,
        text,
        (pattern, value) => compileGlob(pattern)(value) === globMatches(pattern, value),
      ),
    );
  });

  it('matches any of a list, and nothing for an empty list', () => {
    expect(compileGlobs(['a*', 'b*'])('bee')).toBe(true);
    expect(compileGlobs([])('anything')).toBe(false);
  });
});
