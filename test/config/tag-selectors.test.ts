import { describe, expect, it } from 'vitest';
import { covers, selectsNothing } from '../../src/config/matchers.js';
import { matchesSelection } from '../../src/plan/index.js';
import type { Site, SiteMatcher } from '../../src/types.js';
import { errors, loadText } from './helpers.js';

const tag = (name: string): SiteMatcher => ({ type: 'tag', name });
const client = (name: string): SiteMatcher => ({ type: 'client', name });
const site = (more: Partial<Site>): Site => ({
  id: 1,
  url: 'https://a.test/',
  name: 'a',
  status: 'connected',
  ...more,
});

describe('tag and client site items', () => {
  it('parse with where they were written, in include and exclude', async () => {
    const { desired, diagnostics } = await loadText(
      'version: 1\nupdates:\n  - name: p\n    sites:\n      include: [tag:production, "client:Acme Inc"]\n      exclude: [tag:Legacy Sites]\n    kinds: [plugins]\n    max: minor\n',
    );
    expect(errors(diagnostics)).toEqual([]);
    const selection = desired?.policies[0]?.selection;
    expect(selection?.include).toEqual([
      { type: 'tag', name: 'production', source: expect.objectContaining({ line: 5, col: 17 }) },
      { type: 'client', name: 'Acme Inc', source: expect.objectContaining({ line: 5, col: 33 }) },
    ]);
    expect(selection?.exclude).toEqual([
      { type: 'tag', name: 'Legacy Sites', source: expect.objectContaining({ line: 6, col: 17 }) },
    ]);
  });

  it.each(['tag:', 'client:', 'tag: production', 'tag:production '])('refuses %j', async (item) => {
    const { diagnostics } = await loadText(
      `version: 1\nignores:\n  rules:\n    - sites: [${JSON.stringify(item)}]\n      core: true\n`,
    );
    expect(errors(diagnostics).length).toBeGreaterThan(0);
  });

  it('select by exact name, from the membership the live state carries', () => {
    const selection = { include: [tag('production')], exclude: [client('Acme')] };
    expect(matchesSelection(site({ tags: ['production'] }), selection)).toBe(true);
    expect(matchesSelection(site({ tags: ['production'], client: 'Acme' }), selection)).toBe(false);
    expect(matchesSelection(site({ tags: ['Production'] }), selection)).toBe(false);
    expect(matchesSelection(site({}), selection)).toBe(false);
  });

  it('cover only themselves in the static checks', () => {
    expect(covers(tag('a'), tag('a'))).toBe(true);
    expect(covers(tag('a'), client('a'))).toBe(false);
    expect(covers({ type: 'all' }, tag('a'))).toBe(true);
    expect(covers({ type: 'glob', pattern: '*' }, tag('a'))).toBe(false);
    expect(covers(tag('a'), { type: 'id', id: 1 })).toBe(false);
    expect(selectsNothing({ include: [tag('a')], exclude: [tag('a')] })).toBe(true);
    expect(selectsNothing({ include: [tag('a')], exclude: [tag('b')] })).toBe(false);
  });
});
