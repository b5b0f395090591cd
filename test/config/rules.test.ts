import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/config/index.js';
import { RULES } from '../../src/config/rules/index.js';
import { doc, errors, loadText, rulesOf } from './helpers.js';

async function diagnosticsOf(body: string) {
  return (await loadText(doc(body))).diagnostics;
}

async function only(body: string, rule: string) {
  const found = (await diagnosticsOf(body)).filter((d) => d.rule === rule);
  expect(found, `expected ${rule}`).toHaveLength(1);
  return found[0]!;
}

async function none(body: string, rule: string) {
  expect(rulesOf(await diagnosticsOf(body))).not.toContain(rule);
}

describe('semantic rules', () => {
  it('every rule is covered below', () => {
    expect(RULES.map((r) => r.name).sort()).toEqual(
      [
        'bad-cron',
        'unknown-wave',
        'unknown-zone',
        'duplicate-name',
        'duplicate-wave-site',
        'empty-selection',
        'group-cycle',
        'group-too-large',
        'ignored-and-updated',
        'impossible-version-rule',
        'malformed-slug',
        'unknown-group',
        'unused-group',
        'www-glob',
      ].sort(),
    );
  });

  describe('www-glob', () => {
    it('reports a glob starting with www. (addresses drop it: www.* would select every site)', async () => {
      const d = await only('sites: {include: [all], exclude: ["www.*"]}\n', 'www-glob');
      expect(d).toMatchObject({ severity: 'error', path: '/sites/exclude/0' });
      expect(d.message).toContain('selects as if written `*`');
      await only('groups:\n  w: [www.shop-*.test]\nsites: [group:w]\n', 'www-glob');
    });
  });

  describe('unknown-group', () => {
    it('reports an undefined group with a suggestion, at the reference', async () => {
      const d = await only(
        'groups:\n  acme: [acme-*.demo.test]\nsites: [group:acme, group:acmee]\n',
        'unknown-group',
      );
      expect(d).toMatchObject({
        severity: 'error',
        line: 4,
        col: 21,
        path: '/sites/1',
        hint: 'did you mean `acme`?',
      });
    });
    it('lists the defined groups when nothing is close', async () => {
      const d = await only('groups:\n  acme: [1]\nsites: [group:zzz, group:acme]\n', 'unknown-group');
      expect(d.hint).toBe('defined groups: acme');
    });
    it('checks references inside groups too', async () => {
      await only('groups:\n  a: [group:b]\nsites: [group:a]\n', 'unknown-group');
    });
    it('accepts defined groups', async () => {
      await none('groups:\n  acme: [1]\nsites: [group:acme]\n', 'unknown-group');
    });
  });

  describe('group-cycle', () => {
    it('reports groups that include themselves', async () => {
      const body = 'groups:\n  a: [group:b]\n  b: [group:a, 3]\nsites: [group:a]\n';
      const found = (await diagnosticsOf(body)).filter((d) => d.rule === 'group-cycle');
      expect(found.map((d) => d.message)).toEqual([
        'group `a` includes itself: a → b → a',
        'group `b` includes itself: b → a → b',
      ]);
    });
    it('accepts nested groups without a cycle', async () => {
      const result = await loadText(doc('groups:\n  a: [group:b, 1]\n  b: [2]\nsites: [group:a]\n'));
      expect(result.diagnostics).toEqual([]);
      expect(result.desired!.sites.include).toEqual([
        { type: 'id', id: 2 },
        { type: 'id', id: 1 },
      ]);
    });
  });

  describe('group-too-large', () => {
    it('refuses groups that double at every level, before any rule expands them', async () => {
      // g0 lists g1 twice, g1 lists g2 twice, …: 2^24 items, more than the limit.
      const levels = Array.from({ length: 24 }, (_, i) => `  g${i}: [group:g${i + 1}, group:g${i + 1}]`);
      const body = `groups:\n${levels.join('\n')}\n  g24: [x.demo.test]\nsites: [group:g0]\n`;
      const found = await diagnosticsOf(body);
      expect(found.filter((d) => d.rule === 'group-too-large').map((d) => d.message)).toContain(
        `group \`g0\` expands to more than ${LIMITS.maxExpandedItems} sites and globs`,
      );
      expect(rulesOf(found).filter((r) => r !== 'group-too-large')).toEqual([]);
    });
    it('refuses selections that together expand beyond the limit', async () => {
      const big = Array.from({ length: 1000 }, (_, i) => `s${i}.demo.test`).join(', ');
      const rules = Array.from(
        { length: 2001 },
        (_, i) => `    - {sites: [group:big], plugins: [p${i}/p.php]}`,
      );
      const found = await diagnosticsOf(
        `groups:\n  big: [${big}]\nignores:\n  rules:\n${rules.join('\n')}\n`,
      );
      expect(found.map((d) => d.message)).toEqual([
        `the selections up to ignore rule 2001 expand to more than ${LIMITS.maxExpandedItems} sites and globs together`,
      ]);
    });
  });

  describe('unused-group', () => {
    it('warns about a group nothing references, without failing validation', async () => {
      const result = await loadText(doc('groups:\n  spare: [1]\n'));
      expect(rulesOf(result.diagnostics)).toEqual(['unused-group']);
      expect(result.diagnostics[0]!.severity).toBe('warning');
      expect(result.desired).toBeDefined();
    });
  });

  describe('empty-selection', () => {
    it('reports a selection whose exclusions cover every include', async () => {
      const d = await only(
        'sites: {include: [acme-shop.demo.test], exclude: [acme-*.demo.test]}\n',
        'empty-selection',
      );
      expect(d).toMatchObject({ severity: 'error', path: '/sites' });
      await only(
        'updates:\n  - {name: p, sites: {include: [1, 2], exclude: [all]}, max: patch}\n',
        'empty-selection',
      );
      await only(
        'groups:\n  g: [staging-1.demo.test]\nrollout:\n  waves:\n    - {name: w, sites: {include: [group:g], exclude: [staging-*.demo.test]}}\n',
        'empty-selection',
      );
    });
    it('reports an empty list through the schema', async () => {
      const result = await loadText(doc('sites: []\n'));
      expect(errors(result.diagnostics)[0]!.message).toMatch(/must not be empty/);
      expect(errors(result.diagnostics)[0]!.hint).toMatch(/empty selection is an error/);
    });
    it('accepts exclusions that leave something', async () => {
      await none('sites: {include: [acme-*.demo.test], exclude: [acme-shop.demo.test]}\n', 'empty-selection');
      await none('sites: {include: [all], exclude: [legacy-*.demo.test]}\n', 'empty-selection');
    });
    it('compares addresses as the planner does, without a leading www.', async () => {
      // The planner selects www.shop.demo.test as shop.demo.test, which `w*` does not match.
      await none('sites: {include: [www.shop.demo.test], exclude: ["w*"]}\n', 'empty-selection');
      await only('sites: {include: [www.shop.demo.test], exclude: [shop.demo.test]}\n', 'empty-selection');
      await only('sites: {include: [shop.demo.test], exclude: ["s*.demo.test"]}\n', 'empty-selection');
    });
  });

  describe('malformed-slug', () => {
    it('reports policy globs that cannot match the policy kinds', async () => {
      const d = await only(
        'updates:\n  - {name: p, sites: [all], kinds: [plugins], include: [woocommerce], max: patch}\n',
        'malformed-slug',
      );
      expect(d.hint).toContain('woocommerce/woocommerce.php');
      expect(d.path).toBe('/updates/0/include/0');
      const theme = await only(
        'updates:\n  - {name: p, sites: [all], kinds: [themes], exclude: [astra/astra.php], max: patch}\n',
        'malformed-slug',
      );
      expect(theme.hint).toContain('`astra`');
    });
    it('reports hold slugs of the wrong shape for their kind', async () => {
      const d = await only('holds:\n  - {sites: [all], plugin: jetpack}\n', 'malformed-slug');
      expect(d.path).toBe('/holds/0/plugin');
      await only('holds:\n  - {sites: [all], theme: astra/style.php}\n', 'malformed-slug');
    });
    it('accepts globs and slugs that fit', async () => {
      await none(
        "updates:\n  - {name: p, sites: [all], kinds: [plugins, themes], include: ['woocommerce/*', astra, '*'], max: minor}\nholds:\n  - {sites: [all], plugin: 'elementor/*'}\n  - {sites: [all], translation: default}\n",
        'malformed-slug',
      );
    });
  });

  describe('ignored-and-updated', () => {
    const ignore =
      'ignores:\n  rules:\n    - {sites: [acme-*.demo.test], plugins: [woocommerce/woocommerce.php]}\n';
    it('reports a slug ignored and named by a policy on the same sites', async () => {
      const d = await only(
        `${ignore}updates:\n  - {name: shop, sites: [acme-shop.demo.test], kinds: [plugins], include: [woocommerce/woocommerce.php], max: minor}\n`,
        'ignored-and-updated',
      );
      expect(d).toMatchObject({ line: 4, path: '/ignores/rules/0/plugins/0' });
      expect(d.message).toContain('policy `shop` (svc-gitops.yaml:6:5)');
      expect(d.related).toEqual([{ file: 'svc-gitops.yaml', line: 6, col: 5, message: 'policy `shop`' }]);
    });
    it('reports core ignored and a policy naming wordpress', async () => {
      await only(
        'ignores:\n  rules:\n    - {sites: [all], core: true}\nupdates:\n  - {name: c, sites: [1], kinds: [core], include: [wordpress], max: patch}\n',
        'ignored-and-updated',
      );
    });
    it('does not report sites the planner never selects alike (a glob against a www. domain)', async () => {
      await none(
        'ignores:\n  rules:\n    - {sites: ["w*"], plugins: [woocommerce/woocommerce.php]}\nupdates:\n  - {name: w, sites: [www.shop.demo.test], include: [woocommerce/woocommerce.php], max: minor}\n',
        'ignored-and-updated',
      );
    });
    it('does not report globs, disjoint sites, or sites excluded from the overlap', async () => {
      await none(
        `${ignore}updates:\n  - {name: all, sites: [all], include: ['*'], max: minor}\n`,
        'ignored-and-updated',
      );
      await none(
        `${ignore}updates:\n  - {name: g, sites: [globex.demo.test], include: [woocommerce/woocommerce.php], max: minor}\n`,
        'ignored-and-updated',
      );
      await none(
        `${ignore}updates:\n  - {name: g, sites: {include: [all], exclude: [acme-*.demo.test]}, include: [woocommerce/woocommerce.php], max: minor}\n`,
        'ignored-and-updated',
      );
    });
  });

  describe('duplicate-wave-site', () => {
    it('reports a site listed twice in one wave, through a group', async () => {
      const d = await only(
        'groups:\n  s: [staging-1.demo.test]\nrollout:\n  waves:\n    - {name: w, sites: [staging-1.demo.test, group:s]}\n',
        'duplicate-wave-site',
      );
      expect(d.severity).toBe('error');
      expect(d.message).toBe('wave `w` lists staging-1.demo.test twice (directly and group:s)');
    });
    it('warns about a site in two waves', async () => {
      const d = await only(
        'rollout:\n  waves:\n    - {name: a, sites: [7]}\n    - {name: b, sites: [7, 8]}\n',
        'duplicate-wave-site',
      );
      expect(d.severity).toBe('warning');
      expect(d.message).toContain('rolls out in `a`');
    });
    it('accepts distinct sites', async () => {
      await none(
        'rollout:\n  waves:\n    - {name: a, sites: [7]}\n    - {name: b, sites: [all]}\n',
        'duplicate-wave-site',
      );
    });
  });

  describe('impossible-version-rule', () => {
    it('reports a pinned translation', async () => {
      const d = await only(
        "holds:\n  - {sites: [all], translation: default, pin: '6.4'}\n",
        'impossible-version-rule',
      );
      expect(d).toMatchObject({ severity: 'error', path: '/holds/0/pin' });
    });
    it('reports a hold both pinned and of some versions', async () => {
      const d = await only(
        "holds:\n  - {sites: [all], plugin: a/a.php, pin: '6.4', versions: ['6.5.1']}\n",
        'impossible-version-rule',
      );
      expect(d).toMatchObject({ severity: 'error', path: '/holds/0/versions' });
    });
    it('warns about a policy that allows nothing', async () => {
      const d = await only('updates:\n  - {name: p, sites: [all], max: none}\n', 'impossible-version-rule');
      expect(d.severity).toBe('warning');
    });
    it('rejects versions the platform cannot compare, through the schema', async () => {
      for (const pin of ["'9.x'", "'1.2.3.4.5'", "'latest'", "''"]) {
        const result = await loadText(doc(`holds:\n  - {sites: [all], plugin: a/a.php, pin: ${pin}}\n`));
        expect(errors(result.diagnostics).map((d) => d.path)).toEqual(['/holds/0/pin']);
      }
    });
    it('accepts pins of one to four parts', async () => {
      for (const pin of ['9', '9.4', '6.4.1', '6.4.1.2']) {
        const result = await loadText(doc(`holds:\n  - {sites: [all], plugin: a/a.php, pin: '${pin}'}\n`));
        expect(result.diagnostics).toEqual([]);
      }
    });
  });

  describe('duplicate-name', () => {
    it('reports two policies with one name, naming both places', async () => {
      const d = await only(
        'updates:\n  - {name: p, sites: [all], max: patch}\n  - {name: p, sites: [1], max: minor}\n',
        'duplicate-name',
      );
      expect(d.message).toBe('update policy `p` is defined twice (first at svc-gitops.yaml:3:5)');
      expect(d.line).toBe(4);
    });
    it('reports two waves with one name', async () => {
      await only(
        'rollout:\n  waves:\n    - {name: w, sites: [1]}\n    - {name: w, sites: [2]}\n',
        'duplicate-name',
      );
    });
  });
});
