import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DESIRED_STATE_SCHEMA, loadDesiredState } from '../../src/config/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const load = (p: string) => loadDesiredState({ path: p, fs, cwd: ROOT });

describe('examples', () => {
  const singles = fs.readdirSync(path.join(ROOT, 'examples')).filter((n) => /\.ya?ml$/.test(n));

  it('includes the documented examples', () => {
    expect(singles).toEqual(expect.arrayContaining(['minimal.yaml', 'agency.yaml']));
  });

  for (const name of [...singles.map((n) => `examples/${n}`), 'examples/multi-file']) {
    it(`${name} validates without any diagnostic`, async () => {
      const result = await load(name);
      expect(result.diagnostics).toEqual([]);
      expect(result.desired).toBeDefined();
    });
  }

  it('every example file names the schema for editors', () => {
    const files = [
      ...singles.map((n) => `examples/${n}`),
      ...fs
        .readdirSync(path.join(ROOT, 'examples/multi-file'))
        .filter((n) => n.endsWith('.yaml'))
        .map((n) => `examples/multi-file/${n}`),
    ];
    for (const file of files) {
      const first = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')[0];
      const ref = /^# yaml-language-server: \$schema=(.+)$/.exec(first ?? '')?.[1];
      expect(ref, file).toBeDefined();
      expect(fs.existsSync(path.resolve(path.dirname(path.join(ROOT, file)), ref!)), file).toBe(true);
    }
  });

  it('together the examples use every property the schema defines (they document the format)', () => {
    const files = [
      ...singles.map((n) => path.join(ROOT, 'examples', n)),
      ...fs
        .readdirSync(path.join(ROOT, 'examples/multi-file'))
        .filter((n) => n.endsWith('.yaml'))
        .map((n) => path.join(ROOT, 'examples/multi-file', n)),
    ];
    const used = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (typeof value === 'object' && value !== null) {
        for (const [k, v] of Object.entries(value)) {
          used.add(k);
          collect(v);
        }
      }
    };
    for (const file of files) collect(parse(fs.readFileSync(file, 'utf8')));
    const declared = new Set<string>();
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'properties') for (const name of Object.keys(v as object)) declared.add(name);
        walk(v);
      }
    };
    walk(DESIRED_STATE_SCHEMA);
    expect([...declared].filter((name) => !used.has(name))).toEqual([]);
  });

  it('the agency example expands groups, keeps holds with pins and orders waves', async () => {
    const { desired } = await load('examples/agency.yaml');
    expect(desired!.sites).toEqual({
      include: [{ type: 'all' }],
      exclude: [{ type: 'glob', pattern: 'legacy-*.demo.test' }],
    });
    expect(desired!.ignoreScope).toBe('report');
    const acmeHold = desired!.holds[0]!;
    expect(acmeHold).toMatchObject({
      kind: 'plugin',
      slug: 'woocommerce/woocommerce.php',
      maxVersion: '9.4',
      reason: 'checkout customisations pending QA',
      selection: { include: [{ type: 'glob', pattern: 'acme-*.demo.test' }], exclude: [] },
      source: { file: 'examples/agency.yaml', path: '/holds/0' },
    });
    expect(acmeHold.source.line).toBeGreaterThan(1);
    expect(desired!.waves.map((w) => [w.name, w.maxFailures])).toEqual([
      ['staging', 0],
      ['early-clients', 1],
      ['clients', 2],
      ['everyone-else', 2],
    ]);
    expect(desired!.waves[2]!.selection.include).toContainEqual({
      type: 'domain',
      domain: 'hooli-mail.demo.test',
    });
    expect(desired!.approval).toEqual({
      maxSitesWithoutApproval: 20,
      coreNeedsApproval: true,
      majorNeedsApproval: true,
    });
    const core = desired!.policies.find((p) => p.name === 'core-patches')!;
    expect(core.kinds).toEqual(['core']);
    expect(core.selection.exclude).toEqual([
      { type: 'domain', domain: 'umbrella.demo.test' },
      { type: 'domain', domain: 'umbrella-labs.demo.test' },
    ]);
  });

  it('the multi-file example merges the parts of three teams', async () => {
    const { desired } = await load('examples/multi-file');
    expect(desired!.files.map((f) => f.path)).toEqual([
      'examples/multi-file/00-platform.yaml',
      'examples/multi-file/10-security.yaml',
      'examples/multi-file/20-clients.yaml',
    ]);
    expect(desired!.policies.map((p) => p.name)).toEqual(['routine', 'security-plugins', 'core-patches']);
    expect(desired!.holds.map((h) => [h.kind, h.slug, h.source.file])).toEqual([
      ['plugin', 'woocommerce/woocommerce.php', 'examples/multi-file/20-clients.yaml'],
      ['core', 'wordpress', 'examples/multi-file/20-clients.yaml'],
      ['translation', 'jetpack', 'examples/multi-file/20-clients.yaml'],
    ]);
    expect(desired!.approval).toEqual({
      maxSitesWithoutApproval: 25,
      coreNeedsApproval: true,
      majorNeedsApproval: true,
    });
    expect(desired!.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
