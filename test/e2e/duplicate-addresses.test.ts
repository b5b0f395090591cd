import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { PROFILES, resetStats, STACK_TRACE, sandboxEnv, sandboxStats, tempDir } from './helpers.js';

/** Two site IDs (2 and 5) with one address, as a dashboard lists a site added twice. */
const FLEET = `
sites:
  - id: 1
    url: https://other.example.test/
    plugins: { akismet/akismet.php: 5.3.6 -> 5.3.7 }
  - id: 2
    url: https://shop.example.test/
    plugins: { akismet/akismet.php: 5.3.6 -> 5.3.7 }
  - id: 5
    url: https://www.Shop.example.test
    shares_url: true
    plugins: { akismet/akismet.php: 5.3.6 -> 5.3.7 }
`;

const desired = (sites: string) => `version: 1
ignores:
  rules:
    - sites: [${sites}]
      plugins: [akismet/akismet.php]
`;

/**
 * A domain in the desired state names one site. When the dashboard lists two IDs for it, a plan
 * would act on both without a word: plan and apply refuse, naming both IDs and saying to use one.
 */
describe.each(PROFILES)('a domain two sites share (%s sandbox)', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startSandbox({ fleet: parseFleet(FLEET, 'fleet.yaml'), profile });
    env = sandboxEnv(sandbox, tempDir());
  });
  afterAll(() => sandbox.close());

  const run = (yaml: string, argv: string[]) => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'svc-gitops.yaml'), yaml);
    return cli(argv, { env, cwd });
  };

  it('plan and apply refuse the domain, naming both IDs; nothing is written', async () => {
    for (const argv of [['plan'], ['apply', '--auto-approve']]) {
      await resetStats(sandbox);
      const result = await run(desired('shop.example.test'), argv);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('svc-gitops: error [CONFIG_INVALID]');
      expect(result.stderr).toContain(
        'svc-gitops.yaml:4: ignore rule 1 names the domain shop.example.test, which the dashboard lists for 2 sites (IDs 2 and 5)',
      );
      expect(result.stderr).toMatch(/Name the site by its ID instead of its domain/);
      expect(result.stderr).not.toMatch(STACK_TRACE);
      const seen = Object.keys((await sandboxStats(sandbox)).requests);
      expect(seen.filter((route) => !route.startsWith('GET '))).toEqual([]);
    }
  });

  it('--target with the domain is refused the same way', async () => {
    const result = await run(desired('all'), ['plan', '--target', 'shop.example.test']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      'svc-gitops: error [USAGE]: --target shop.example.test names 2 sites of the dashboard (IDs 2 and 5)',
    );
    expect(result.stderr).toContain('give the site');
  });

  it('an ID names one of them: the plan acts on that site alone', async () => {
    const result = await run(desired('5'), ['plan', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as { actions: Array<{ op: string; site_id: number }> };
    expect(plan.actions.filter((a) => a.op === 'ignore').map((a) => a.site_id)).toEqual([5]);
  });

  it('a domain only one site has is planned as before', async () => {
    const result = await run(desired('other.example.test'), ['plan', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as { actions: Array<{ op: string; site_id: number }> };
    expect(plan.actions.filter((a) => a.op === 'ignore').map((a) => a.site_id)).toEqual([1]);
  });
});
