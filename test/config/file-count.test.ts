import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/config/index.js';
import { doc, loadFrom, rulesOf } from './helpers.js';

describe('a desired-state directory', () => {
  const files = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `conf/${String(i).padStart(3, '0')}.yaml`,
        doc('sites: [all]\n'),
      ]),
    );

  it(`reads up to ${LIMITS.maxFiles} YAML files and refuses one more, saying how many it holds`, async () => {
    const atLimit = await loadFrom(files(LIMITS.maxFiles), 'conf');
    expect(rulesOf(atLimit.diagnostics)).not.toContain('too-many-files');
    const over = await loadFrom(files(LIMITS.maxFiles + 1), 'conf');
    expect(over.desired).toBeUndefined();
    expect(rulesOf(over.diagnostics)).toEqual(['too-many-files']);
    expect(over.diagnostics[0]!.message).toContain(`holds ${LIMITS.maxFiles + 1} YAML files`);
  });
});
