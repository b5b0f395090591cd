import { mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Fleet, generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import {
  PROFILES,
  REPO,
  resetStats,
  sandboxEnv,
  sandboxStats,
  setFaults,
  startDemo,
  tempDir,
} from './helpers.js';

const { version: VERSION } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string;
};

/** How many (site, item) ignores the imported rules ask for. */
function ignoresIn(yaml: string): number {
  const rules = (parse(yaml) as { ignores: { rules: Array<Record<string, unknown[] | boolean>> } }).ignores
    .rules;
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  return rules.reduce(
    (sum, r) => sum + count(r.sites) * ((r.core ? 1 : 0) + count(r.plugins) + count(r.themes)),
    0,
  );
}

/**
 * A generated fleet made awkward: www twins, a port, IDN, hosts YAML would read as other types,
 * a path, core and version-specific ignores, a site-wide flag, slugs YAML would misread or the
 * format cannot hold, one ignore on every site, global ignores.
 */
function awkwardFleet(): Fleet {
  const fleet = generateFleet({ sites: 30, pendingPerSite: 3, ignoredPerSite: 2, seed: 7 });
  const s = fleet.sites;
  const urls = [
    'https://www.shop.fleet.test/',
    'https://shop.fleet.test/',
    'https://port.fleet.test:8443/',
    'https://bücher.fleet.test/',
    'https://1e5/',
    'https://null/',
    'https://sub.fleet.test/blog/',
    'https://12345/',
    'https://true/',
    'https://UPPER.Fleet.test/',
  ];
  urls.forEach((url, i) => {
    s[i]!.url = url;
  });
  s[11]!.name = 'evil: name # x\n- y "q"';
  s[12]!.ignores.core = 'all';
  s[13]!.ignores.core = ['6.9.0'];
  s[14]!.flags.plugins = true;
  const all = (slug: string) => ({ slug, name: slug, versions: 'all' as const });
  // '0123', not '123': MainWP would store 123 as an integer key, which poisons its listing.
  s[16]!.ignores.themes.push(all('0123'), all('true'), all('-lead'), all('1e5'), all('astra'));
  s[17]!.ignores.themes.push({ ...all('my theme#x'), name: 'x' });
  s[17]!.ignores.plugins.push({ ...all('a: b/c.php'), name: 'x' });
  s[18]!.ignores.plugins.push({ slug: 'x/y.php', name: 'x', versions: ['2.0', '1.0'] });
  s[19]!.ignores.plugins.push(all('-x/-y.php'), all('null.php'), all(`${'a'.repeat(400)}/b.php`));
  for (const site of s) site.ignores.plugins.push(all('shared/shared.php'));
  fleet.globalIgnores.plugins.push({ slug: 'jetpack/jetpack.php', name: 'Jetpack', versions: 'all' });
  fleet.globalIgnores.themes.push({ slug: 'twentytwentyfour', name: 'TT4', versions: ['1.0'] });
  return fleet;
}

/** `import` then `plan`: the imported YAML adopts the live ignore lists, so nothing to (un)ignore. */
describe.each(PROFILES)('import against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startDemo(profile);
    env = sandboxEnv(sandbox, tempDir());
  });
  afterAll(() => sandbox.close());

  it('import --out, then plan with that file: no ignore or unignore actions', async () => {
    const cwd = tempDir();
    const imported = await cli(['import', '--out', 'svc-gitops.yaml'], { env, cwd });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe('');
    expect(imported.stderr).toContain('Wrote ');
    const yaml = readFileSync(join(cwd, 'svc-gitops.yaml'), 'utf8');
    expect(yaml).toContain('woocommerce/woocommerce.php');

    const validated = await cli(['validate'], { env, cwd });
    expect(validated.code, validated.stderr + validated.stdout).toBe(0);

    const planned = await cli(['plan', '--format', 'json', '--detailed-exitcode'], { env, cwd });
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(plan.actions.filter((action) => action.op !== 'update')).toEqual([]);
    expect(plan.summary).toMatchObject({ ignore: 0, unignore: 0 });
    // The import writes no update policies, so the plan is empty and exits 0.
    expect(planned.code, planned.stderr).toBe(0);
  });

  it('import to stdout gives the same YAML as import --out', async () => {
    const cwd = tempDir();
    const printed = await cli(['import'], { env, cwd });
    await cli(['import', '--out', 'adopted.yaml'], { env, cwd });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(readFileSync(join(cwd, 'adopted.yaml'), 'utf8'));
  });

  it("the editor's $schema reference never holds this machine's layout, and resolves inside the installation", async () => {
    const refOf = (yaml: string) => /yaml-language-server: \$schema=(\S+)/.exec(yaml)?.[1];
    // Outside the installation (a fleet repository, the CLI installed globally): this release's
    // schema at its published address.
    const cwd = tempDir();
    mkdirSync(join(cwd, 'gitops'));
    const outside = await cli(['import', '--out', 'gitops/svc-gitops.yaml'], { env, cwd });
    expect(outside.code, outside.stderr).toBe(0);
    expect(refOf(readFileSync(join(cwd, 'gitops/svc-gitops.yaml'), 'utf8'))).toBe(
      `https://cdn.jsdelivr.net/npm/svc-gitops@${VERSION}/schemas/svc-gitops.schema.json`,
    );
    // Inside it (printed, from a folder of the clone): the path to the shipped schema.
    const schemas = join(REPO, 'schemas');
    const inside = await cli(['import'], { env, cwd: schemas });
    expect(inside.code, inside.stderr).toBe(0);
    const ref = refOf(inside.stdout);
    expect(ref).toBe('./svc-gitops.schema.json');
    expect(readFileSync(resolve(schemas, ref!), 'utf8')).toBe(
      readFileSync(join(REPO, 'schemas/svc-gitops.schema.json'), 'utf8'),
    );
  });

  it('import --out refuses to overwrite an existing file without --force', async () => {
    const cwd = tempDir();
    const target = join(cwd, 'existing.yaml');
    for (const out of ['existing.yaml', target]) {
      writeFileSync(target, '# mine\n');
      const refused = await cli(['import', '--out', out], { env, cwd });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('exists');
      expect(refused.stderr).toContain('--force');
      expect(readFileSync(target, 'utf8')).toBe('# mine\n');

      const forced = await cli(['import', '--out', out, '--force'], { env, cwd });
      expect(forced.code, forced.stderr).toBe(0);
      expect(readFileSync(target, 'utf8')).toContain('version: 1');
    }
  });

  it('import --out naming a directory says so (not "pass --force"), with or without --force, before reading', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'conf'));
    await resetStats(sandbox);
    for (const argv of [
      ['import', '--out', 'conf'],
      ['import', '--out', 'conf', '--force'],
    ]) {
      const refused = await cli(argv, { env, cwd });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('svc-gitops: error [USAGE]: conf is a directory');
      expect(refused.stderr).toContain('hint: name a file, e.g. --out conf/svc-gitops.yaml');
    }
    expect((await sandboxStats(sandbox)).requests_total).toBe(0);
  });

  it('import --out DIR/ writes a directory of files that plans with no ignore changes; a non-empty one needs --force', async () => {
    const cwd = tempDir();
    const imported = await cli(['import', '--out', 'conf/'], { env, cwd });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(/^Wrote \d+ files to conf\/: /);
    const first = readFileSync(join(cwd, 'conf/00-svc-gitops.yaml'), 'utf8');
    expect(first).toContain('unmanaged: report');
    expect(first).toContain(`$schema=https://cdn.jsdelivr.net/npm/svc-gitops@${VERSION}/schemas/`);
    expect(ignoresIn(readFileSync(join(cwd, 'conf/10-ignores-001.yaml'), 'utf8'))).toBeGreaterThan(0);
    const planned = await cli(['plan', '-c', 'conf', '--format', 'json'], { env, cwd });
    expect(planned.code, planned.stderr).toBe(0);
    expect((JSON.parse(planned.stdout) as Plan).actions.filter((a) => a.op !== 'update')).toEqual([]);
    const again = await cli(['import', '--out', 'conf/'], { env, cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('svc-gitops: error [USAGE]: conf/ is not empty');
    expect((await cli(['import', '--out', 'conf/', '--force'], { env, cwd })).code).toBe(0);
  });

  it('import --out never replaces a symlink without --force, even one whose target is missing', async () => {
    const cwd = tempDir();
    symlinkSync(join(cwd, 'missing.yaml'), join(cwd, 'link.yaml'));
    const refused = await cli(['import', '--out', 'link.yaml'], { env, cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('link.yaml exists');
    expect(readlinkSync(join(cwd, 'link.yaml'))).toBe(join(cwd, 'missing.yaml'));
  });

  it('import --out refuses a file that appeared while the dashboard was read', async () => {
    const cwd = tempDir();
    const target = join(cwd, 'late.yaml');
    await resetStats(sandbox);
    await setFaults(sandbox, [{ kind: 'latency', delayMs: 400 }]);
    try {
      let settled = false;
      const running = cli(['import', '--out', 'late.yaml'], { env, cwd }).finally(() => {
        settled = true;
      });
      // The first check of --out comes before any dashboard call: once the first request has
      // arrived (its answer is 400 ms away), that check has passed and the read is under way.
      while (!settled && (await sandboxStats(sandbox)).requests_total < 1)
        await new Promise((done) => setTimeout(done, 10));
      expect(settled, 'import ended before it read the dashboard').toBe(false);
      writeFileSync(target, '# written meanwhile\n');
      const refused = await running;
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('svc-gitops: error [USAGE]: late.yaml exists');
      expect(refused.stderr).not.toContain('Wrote');
      // Refused by the second check, after the whole read (the first would have cost no read).
      expect((await sandboxStats(sandbox)).abilities).toEqual({
        'svc/list-updates-v1': 1,
        'svc/list-ignored-updates-v1': 1,
        // The tags, for rules on exactly a tag's sites.
        'svc/list-tags-v1': 1,
        // The demo fleet's one site-wide flag (themes, site 18): the updates it hides.
        'svc/get-site-themes-v1': 1,
      });
      expect(readFileSync(target, 'utf8')).toBe('# written meanwhile\n');
    } finally {
      await setFaults(sandbox, []);
    }
  });

  it('import --out counts only the per-site ignores it adopted, not global ones', async () => {
    const cwd = tempDir();
    const imported = await cli(['import', '--out', 'svc-gitops.yaml'], { env, cwd });
    expect(imported.code, imported.stderr).toBe(0);
    const adopted = ignoresIn(readFileSync(join(cwd, 'svc-gitops.yaml'), 'utf8'));
    expect(adopted).toBeGreaterThan(0);
    expect(imported.stderr).toContain(`, ${adopted} per-site ignores adopted`);
  });

  it('adopts an awkward generated fleet: validates, plans no ignore changes, imports again byte for byte', async () => {
    const awkward = await startSandbox({ fleet: awkwardFleet(), profile });
    try {
      const awkwardEnv = sandboxEnv(awkward, tempDir());
      const cwd = tempDir();
      const imported = await cli(['import', '--out', 'svc-gitops.yaml'], { env: awkwardEnv, cwd });
      expect(imported.code, imported.stderr).toBe(0);
      const yaml = readFileSync(join(cwd, 'svc-gitops.yaml'), 'utf8');
      expect(yaml).toContain('"1e5"');
      // One entry a line, under its heading.
      expect(yaml).toMatch(
        /^# Left unmanaged \(ignores of specific versions\):\n(# {3}.*\n)*# {3}\S+ x\/y\.php 1\.0,2\.0\n/m,
      );
      expect(yaml).toMatch(
        /^# Left unmanaged \(slugs this format cannot hold\):\n(# {3}.*\n)*# {3}\S+ a: b\/c\.php\n/m,
      );
      expect(imported.stderr).toContain(`, ${ignoresIn(yaml)} per-site ignores adopted, 4 left unmanaged`);

      const validated = await cli(['validate'], { env: awkwardEnv, cwd });
      expect(validated.code, validated.stdout + validated.stderr).toBe(0);
      const planned = await cli(['plan', '--format', 'json'], { env: awkwardEnv, cwd });
      expect(planned.code, planned.stderr).toBe(0);
      const plan = JSON.parse(planned.stdout) as Plan;
      expect(plan.actions.filter((action) => action.op !== 'update')).toEqual([]);

      const again = await cli(['import'], { env: awkwardEnv, cwd });
      expect(again.stdout).toBe(yaml);
    } finally {
      await awkward.close();
    }
  });
});
