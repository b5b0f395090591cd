import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import {
  PROFILES,
  planSchemaErrors,
  REPO,
  resetStats,
  sandboxEnv,
  sandboxStats,
  startDemo,
  tempDir,
} from './helpers.js';

/**
 * Tag and client selectors end to end: the demo fleet's tags (staging, production, shop) and
 * clients (Acme, Globex, …) resolved by the real client from the sandbox's tag and client
 * abilities, in plans, apply and the did-you-mean of a misspelt name.
 */
describe.each(PROFILES)('tag and client selectors against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let dir: string;
  const plan = (...argv: string[]) => cli(['plan', ...argv], { env, cwd: REPO });
  const config = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    sandbox = await startDemo(profile);
    dir = tempDir();
    env = sandboxEnv(sandbox, dir);
  });
  afterAll(() => sandbox.close());

  it('plans with each selector resolved to its sites and shown with its count in every format', async () => {
    const json = await plan('-c', 'examples/tags.yaml', '--format', 'json');
    expect(json.code, json.stderr).toBe(0);
    const planned = JSON.parse(json.stdout) as Plan;
    expect(planSchemaErrors(planned)).toBe('');
    expect(planned.selectors).toEqual([
      { selector: 'client:Acme', sites: 4 },
      { selector: 'tag:shop', sites: 2 },
      { selector: 'tag:production', sites: 22 },
      { selector: 'tag:staging', sites: 3 },
      { selector: 'client:Umbrella', sites: 2 },
      { selector: 'client:Globex', sites: 3 },
    ]);
    // client:Acme ignores astra (acme-shop has its update pending); tag:shop ignores woocommerce.
    const ignores = planned.actions.filter((a) => a.op === 'ignore').map((a) => `${a.site_id} ${a.slug}`);
    // (acme-shop's woocommerce is ignored already.)
    expect(ignores).toEqual(['4 astra', '5 astra', '6 astra', '7 astra', '9 woocommerce/woocommerce.php']);
    // Umbrella's sites (13, 14) are excluded from the routine policy; staging is its own wave.
    const updates = planned.actions.filter((a) => a.op === 'update');
    expect(updates.some((a) => a.site_id === 13 || a.site_id === 14)).toBe(false);
    expect(new Set(updates.filter((a) => a.site_id <= 3).map((a) => a.wave))).toEqual(new Set(['staging']));
    // The hold on client:Globex keeps elementor back there.
    expect(updates.some((a) => [8, 9, 10].includes(a.site_id) && a.slug === 'elementor/elementor.php')).toBe(
      false,
    );
    const text = await plan('-c', 'examples/tags.yaml');
    expect(text.stdout).toContain(
      'selectors: client:Acme 4 sites, tag:shop 2 sites, tag:production 22 sites',
    );
    const markdown = await plan('-c', 'examples/tags.yaml', '--format', 'markdown');
    expect(markdown.stdout).toContain('Selectors: `client:Acme` 4 sites, `tag:shop` 2 sites,');
  });

  it('reads tags and clients once each, and not at all when no selector names them', async () => {
    await resetStats(sandbox);
    const plain = await plan('-c', 'examples/minimal.yaml', '--format', 'json');
    expect(plain.code, plain.stderr).toBe(0);
    expect((JSON.parse(plain.stdout) as Plan).selectors).toBeUndefined();
    const before = (await sandboxStats(sandbox)).abilities;
    for (const name of ['list-tags-v1', 'get-tag-sites-v1', 'list-clients-v1', 'get-client-sites-v1'])
      expect(before[`svc/${name}`] ?? 0, name).toBe(0);
    await resetStats(sandbox);
    const tagged = await plan('-c', 'examples/tags.yaml', '--format', 'json');
    expect(tagged.code, tagged.stderr).toBe(0);
    const after = (await sandboxStats(sandbox)).abilities;
    expect(after['svc/list-tags-v1']).toBe(1);
    expect(after['svc/list-clients-v1']).toBe(1);
    // One unpaged read per client the desired state names (Acme, Umbrella, Globex).
    expect(after['svc/get-client-sites-v1']).toBe(3);
    expect(after['svc/get-tag-sites-v1'] ?? 0).toBe(0);
  });

  it('names a misspelt tag or client where it was written, with the closest name the dashboard has', async () => {
    const path = config(
      'typo.yaml',
      'version: 1\nignores:\n  rules:\n    - sites: [tag:prodcution, client:acme]\n      plugins: [woocommerce/woocommerce.php]\n',
    );
    const result = await plan('-c', path);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `selects tag "prodcution" (${path}:4:15), which the dashboard does not have (did you mean production?)`,
    );
    expect(result.stderr).toContain(
      `selects client "acme" (${path}:4:31), which the dashboard does not have (did you mean Acme?)`,
    );
    const strict = await plan('-c', path, '--strict');
    expect(strict.code).not.toBe(0);
  });

  it('applies an update policy by tag to exactly the tagged sites', async () => {
    const path = config(
      'apply.yaml',
      'version: 1\nupdates:\n  - name: staging\n    sites: [tag:staging]\n    kinds: [plugins]\n    max: minor\n',
    );
    const applied = await cli(['apply', '-c', path, '--auto-approve', '--format', 'json'], {
      env,
      cwd: REPO,
    });
    expect(applied.code, applied.stderr).toBe(0);
    const again = await plan('-c', path, '--format', 'json');
    const left = JSON.parse(again.stdout) as Plan;
    expect(left.selectors).toEqual([{ selector: 'tag:staging', sites: 3 }]);
    expect(left.actions.filter((a) => a.op === 'update')).toEqual([]);
    // Production sites kept their pending plugin updates.
    const all = await plan(
      '-c',
      config(
        'all.yaml',
        'version: 1\nupdates:\n  - {name: all, sites: [all], kinds: [plugins], max: minor}\n',
      ),
      '--format',
      'json',
    );
    const sites = new Set((JSON.parse(all.stdout) as Plan).actions.map((a) => a.site_id));
    expect([...sites].some((id) => id > 3)).toBe(true);
    expect([...sites].some((id) => id <= 3)).toBe(false);
  });
});

const TAGGED_IGNORES = `
sites:
  - id: 1
    url: https://shop-1.tags.test/
    tags: [shops, eu]
    plugins: { woocommerce/woocommerce.php: 9.8.5 -> 10.0.2 }
    ignores: { plugins: [woocommerce/woocommerce.php] }
  - id: 2
    url: https://shop-2.tags.test/
    tags: [shops]
    client: Acme
    plugins: { woocommerce/woocommerce.php: 9.8.5 -> 10.0.2 }
    ignores: { plugins: [woocommerce/woocommerce.php] }
  - id: 3
    url: https://blog.tags.test/
    tags: [eu]
    client: Acme
    themes: { astra: 4.11.1 -> 4.11.3 }
    ignores: { themes: [astra] }
  - id: 4
    url: https://other.tags.test/
    tags: [eu]
`;

describe.each(PROFILES)('import with tags against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ fleet: parseFleet(TAGGED_IGNORES, 'tagged.yaml'), profile });
    dir = tempDir();
    env = sandboxEnv(sandbox, dir);
  });
  afterAll(() => sandbox.close());

  it('writes tag:<name> for a rule on exactly a tag’s sites, and the plan of it changes no ignore', async () => {
    const imported = await cli(['import', '--out', 'imported.yaml'], { env, cwd: dir });
    expect(imported.code, imported.stderr).toBe(0);
    const rules = (
      parse(readFileSync(join(dir, 'imported.yaml'), 'utf8')) as {
        ignores: { rules: Array<{ sites: unknown[] }> };
      }
    ).ignores.rules;
    // shops = sites 1 and 2 exactly; site 3's astra rule covers no whole tag (eu has 1, 3, 4).
    expect(rules.map((rule) => rule.sites)).toEqual([['tag:shops'], ['blog.tags.test']]);
    const planned = await cli(['plan', '-c', 'imported.yaml', '--format', 'json'], { env, cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(plan.actions.filter((a) => a.op !== 'update')).toEqual([]);
    expect(plan.selectors).toEqual([{ selector: 'tag:shops', sites: 2 }]);
  });

  it('selects by client in exclude as in include', async () => {
    const path = join(dir, 'clients.yaml');
    writeFileSync(
      path,
      'version: 1\nupdates:\n  - name: all-but-acme\n    sites: {include: [tag:eu], exclude: [client:Acme]}\n    kinds: [plugins, themes]\n    max: major\n',
    );
    const planned = await cli(['plan', '-c', path, '--format', 'json'], { env, cwd: dir });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as Plan;
    // eu = 1, 3, 4; Acme = 2, 3: only site 1's woocommerce (ignored there) and nothing on 3.
    expect(plan.selectors).toEqual([
      { selector: 'tag:eu', sites: 3 },
      { selector: 'client:Acme', sites: 2 },
    ]);
    expect(plan.actions.some((a) => a.site_id === 3 || a.site_id === 2)).toBe(false);
  });
});
