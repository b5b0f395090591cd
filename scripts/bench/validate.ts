/**
 * Benchmark: validating a generated desired state for 10,000 sites (read, parse with positions,
 * schema, normalise, merge, rules) against merely parsing the same YAML with `yaml.parse`.
 * Both run interleaved in one process and the ratio of medians is printed (target ≤ 2×).
 *
 *   npx tsx scripts/bench/validate.ts [sites]
 */
import type * as nodeFs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { memfs } from 'memfs';
import { parse } from 'yaml';
import { LIMITS, loadDesiredState } from '../../src/config/index.js';
import { alternate, median, timed } from './harness.js';

const PLUGINS = [
  'akismet/akismet.php',
  'woocommerce/woocommerce.php',
  'wordpress-seo/wp-seo.php',
  'contact-form-7/wp-contact-form-7.php',
  'elementor/elementor.php',
  'jetpack/jetpack.php',
  'classic-editor/classic-editor.php',
  'wordfence/wordfence.php',
];
const THEMES = ['twentytwentyfour', 'twentytwentyfive', 'astra'];

/** A fleet of `sites` sites in clients of 50: a group per client, rules per client and per tenth site. */
export function generateDesiredYaml(sites: number): string {
  const clients = Math.ceil(sites / 50);
  const out = [
    '# yaml-language-server: $schema=../../schemas/svc-gitops.schema.json',
    'version: 1',
    'groups:',
  ];
  for (let c = 0; c < clients; c++) {
    const members = Array.from(
      { length: Math.min(50, sites - c * 50) },
      (_, i) => `site${c * 50 + i + 1}.client${c}.demo.test`,
    );
    out.push(`  client${c}: [${members.join(', ')}]`);
  }
  out.push(
    `  staging: [${Array.from({ length: 20 }, (_, i) => `site${i * 50 + 1}.client${i}.demo.test`).join(', ')}]`,
  );
  out.push(
    'sites:',
    '  include: [all]',
    '  exclude: [legacy-*.demo.test]',
    'ignores:',
    '  unmanaged: report',
    '  rules:',
  );
  out.push('    - sites: [all]', '      plugins: [classic-editor/classic-editor.php]');
  for (let c = 0; c < clients; c++) {
    out.push(
      `    - sites: [group:client${c}]`,
      `      plugins: [${PLUGINS[c % PLUGINS.length]}]`,
      `      themes: [${THEMES[c % THEMES.length]}]`,
    );
  }
  for (let s = 1; s <= sites; s += 10) {
    out.push(
      `    - sites: [${s}]`,
      `      plugins: [${PLUGINS[s % PLUGINS.length]}, ${PLUGINS[(s + 3) % PLUGINS.length]}]`,
    );
  }
  out.push('updates:');
  out.push(
    "  - {name: routine, sites: [all], kinds: [plugins, themes, translations], exclude: ['woocommerce/*'], max: minor}",
  );
  out.push('  - {name: core, sites: [all], kinds: [core], max: patch}');
  out.push('holds:');
  for (let c = 0; c < clients; c += 2) {
    out.push(
      `  - {sites: [group:client${c}], plugin: woocommerce/woocommerce.php, pin: '9.${c % 10}', reason: client QA}`,
    );
  }
  out.push('rollout:', '  waves:', '    - {name: staging, sites: [group:staging]}');
  out.push(
    `    - {name: half, sites: [${Array.from({ length: Math.floor(clients / 2) }, (_, c) => `group:client${c}`).join(', ')}], max_failures: 2}`,
  );
  out.push('    - {name: rest, sites: [all], max_failures: 5}');
  out.push('approval: {max_sites: 100}');
  return `${out.join('\n')}\n`;
}

export async function benchValidate(
  sites = 10_000,
  rounds = 7,
): Promise<{ parseMs: number; validateMs: number; ratio: number }> {
  const text = generateDesiredYaml(sites);
  if (Buffer.byteLength(text) > LIMITS.maxFileBytes) throw new Error('generated file exceeds the size limit');
  const { fs } = memfs({ '/bench/svc-gitops.yaml': text });
  const options = { path: 'svc-gitops.yaml', fs: fs as unknown as typeof nodeFs, cwd: '/bench' };
  const first = await loadDesiredState(options);
  if (!first.desired)
    throw new Error(`generated desired state is invalid: ${JSON.stringify(first.diagnostics.slice(0, 3))}`);
  const timeParse = async () => (await timed(() => parse(text))).ms;
  const timeValidate = async () => (await timed(() => loadDesiredState(options))).ms;
  // Two warm-up runs of each, then alternating order so drift and GC hit both alike.
  const times = await alternate(rounds, timeParse, timeValidate, 2);
  const parseMs = median(times.a);
  const validateMs = median(times.b);
  console.log(
    `validate: ${sites} sites, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, ${first.desired.ignores.length} ignore rules; ` +
      `parse ${parseMs.toFixed(1)} ms, validate ${validateMs.toFixed(1)} ms, ratio ${(validateMs / parseMs).toFixed(2)}× (target ≤ 2×)`,
  );
  return { parseMs, validateMs, ratio: validateMs / parseMs };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchValidate(Number(process.argv[2] ?? 10_000));
}
