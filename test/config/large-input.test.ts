import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/config/index.js';
import { loadFrom, rulesOf } from './helpers.js';

/** A valid file whose `groups` mapping has `n` keys, every group used by `sites`. */
function manyGroups(n: number): string {
  const groups = Array.from({ length: n }, (_, i) => `  g${i}: [s${i}.demo.test]`).join('\n');
  const used = Array.from({ length: n }, (_, i) => `group:g${i}`).join(', ');
  return `version: 1\ngroups:\n${groups}\nsites: [${used}]\n`;
}

/** `n` ignore rules and `n` update policies, none naming the same slug. */
function rulesAndPolicies(n: number): string {
  const rules = Array.from(
    { length: n },
    (_, i) => `    - {sites: [s${i}.demo.test], plugins: [a${i}/a.php]}`,
  );
  const policies = Array.from(
    { length: n },
    (_, i) =>
      `  - {name: p${i}, sites: [t${i}.demo.test], kinds: [plugins], include: [b${i}/b.php], max: minor}`,
  );
  return `version: 1\nignores:\n  rules:\n${rules.join('\n')}\nupdates:\n${policies.join('\n')}\n`;
}

/** The CPU time of loading `large` over that of `small` (the better of two runs of `small`). */
async function cpuRatio(small: string, large: string): Promise<{ ratio: number; text: string }> {
  await cpuMsOfLoad(small); // warm-up: compiled code, schema validator
  const smallMs = Math.min(await cpuMsOfLoad(small), await cpuMsOfLoad(small));
  const largeMs = await cpuMsOfLoad(large);
  return { ratio: largeMs / smallMs, text: `${smallMs.toFixed(0)} ms vs ${largeMs.toFixed(0)} ms` };
}

/** A valid file of `n` groups that nothing uses: a warning, located at its key, for each. */
function unusedGroups(n: number): string {
  const groups = Array.from({ length: n }, (_, i) => `  g${i}: [s${i}.demo.test]`).join('\n');
  return `version: 1\ngroups:\n${groups}\n`;
}

/** CPU time (user + system, all threads) of one load: unlike wall time, other processes do not add to it. */
async function cpuMsOfLoad(text: string): Promise<number> {
  const before = process.cpuUsage();
  const result = await loadFrom({ 'svc-gitops.yaml': text });
  const used = process.cpuUsage(before);
  expect(result.desired).toBeDefined();
  return (used.user + used.system) / 1000;
}

describe('a large desired state', () => {
  it('refuses a directory whose files together exceed the total limit, before parsing them', async () => {
    // Each file is within the per-file limit; together they are above the total.
    const fileBytes = LIMITS.maxFileBytes - 1024;
    const count = Math.floor(LIMITS.maxTotalBytes / fileBytes) + 1;
    const files: Record<string, string> = {};
    for (let i = 0; i < count; i++) files[`conf/${i}.yaml`] = `version: 1\n#${'x'.repeat(fileBytes - 13)}\n`;
    const result = await loadFrom(files, 'conf');
    expect(result.desired).toBeUndefined();
    expect(rulesOf(result.diagnostics)).toEqual(['config-too-large']);
    const [d] = result.diagnostics;
    expect(d!.message).toBe(
      `conf holds ${count * fileBytes} bytes of YAML files together; the limit is ${LIMITS.maxTotalBytes} (16 MiB)`,
    );
    expect(d!.line).toBeUndefined();
  });

  it('accepts a directory just under the total limit', async () => {
    const files: Record<string, string> = {
      'conf/a.yaml': `version: 1\n#${'x'.repeat(LIMITS.maxFileBytes - 20)}\n`,
      'conf/b.yaml': 'version: 1\n',
    };
    expect((await loadFrom(files, 'conf')).diagnostics).toEqual([]);
  });

  it('still finds a repeated key at every level, in block and flow mappings, at the repeat', async () => {
    const text =
      'version: 1\ngroups:\n  a: [x.demo.test]\n  b: [y.demo.test]\n  a: [z.demo.test]\nholds:\n  - {sites: [all], plugin: a/a.php, plugin: b/b.php}\n';
    const result = await loadFrom({ 'svc-gitops.yaml': text });
    expect(result.diagnostics.map((d) => [d.rule, d.line, d.col])).toEqual([
      ['duplicate-key', 5, 3],
      ['duplicate-key', 7, 37],
    ]);
  });

  // Groups were expanded recursively, copying the path at each level, and cycles were searched
  // from every group: a chain of 2,000 groups took 17 s, one of 8,000 overflowed the stack.
  it('loads a chain of 20,000 groups, each naming the next', async () => {
    const chain = Array.from(
      { length: 20_000 },
      (_, i) => `  g${i}: [${i + 1 < 20_000 ? `group:g${i + 1}, ` : ''}s${i}.demo.test]`,
    );
    const result = await loadFrom({
      'svc-gitops.yaml': `version: 1\ngroups:\n${chain.join('\n')}\nsites: [group:g0]\n`,
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.desired?.sites.include).toHaveLength(20_000);
  });

  it('reports a cycle of 20,000 groups by its size, each group once', async () => {
    const cycle = Array.from(
      { length: 20_000 },
      (_, i) => `  g${i}: [group:g${(i + 1) % 20_000}, s${i}.demo.test]`,
    );
    const result = await loadFrom({
      'svc-gitops.yaml': `version: 1\ngroups:\n${cycle.join('\n')}\nsites: [group:g0]\n`,
    });
    expect(result.diagnostics).toHaveLength(20_000);
    expect(result.diagnostics[0]!.message).toBe(
      'group `g0` includes itself: it is one of 20000 groups that reference each other in a cycle',
    );
  });

  // The yaml library compared each mapping key with every earlier one: 4× the groups took 16×
  // the time (a 1.7 MB file of 40,000 groups: 25 s). Linear work takes about 4×; 7× leaves room
  // for noise and the collector, and is far below what quadratic work takes.
  it('loads in time linear in the size: 4× the groups cost well under 7× the CPU time', async () => {
    const { ratio, text } = await cpuRatio(manyGroups(8_000), manyGroups(32_000));
    expect(ratio, text).toBeLessThan(7);
  });

  // Locating a key scanned its mapping: a warning for each of 20,000 groups took 77 s.
  it('locates diagnostics in time linear in their number: 4× the unused groups cost well under 7× the CPU time', async () => {
    const { ratio, text } = await cpuRatio(unusedGroups(3_000), unusedGroups(12_000));
    expect(ratio, text).toBeLessThan(7);
  });

  // The ignored-and-updated rule compared every ignore rule with every policy: 20,000 of each
  // (3.2 MB) took 23 s of CPU, 5 s now.
  it('loads in time linear in the size: 4× the rules and policies cost well under 7× the CPU time', async () => {
    const { ratio, text } = await cpuRatio(rulesAndPolicies(4_000), rulesAndPolicies(16_000));
    expect(ratio, text).toBeLessThan(7);
  });
});
