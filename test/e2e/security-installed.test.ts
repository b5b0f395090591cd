import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { sandboxPer } from '../helpers/sandbox.js';
import { planSchemaErrors, sandboxEnv, T0, tempDir } from './helpers.js';
import { API_KEY, config, FLEET, putFeed } from './security-fixture.js';

const CF7 = 'contact-form-7/wp-contact-form-7.php';

/**
 * `security.installed`: sites 7 and 8 run contact-form-7 5.1, the latest release (no update
 * pending), which the feed says is affected with no fix. Only the installed listings show it.
 */
const WITH_LATEST = `${FLEET}  - id: 7
    url: https://site-7.demo.test/
    plugins:
      ${CF7}: "5.1"
  - id: 8
    url: https://site-8.demo.test/
    plugins:
      ${CF7}: "5.1"
    themes:
      twentytwentyfive: "1.2"
`;

describe('vulnerable installed versions with no pending update', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(WITH_LATEST) }));
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    dir = tempDir();
    env = { ...sandboxEnv(sandbox, dir), SVC_RATE_LIMIT: '0', SVC_FEED_API_KEY: API_KEY };
    await putFeed(sandbox.url);
  });
  const plan = async (installed: boolean, argv: string[] = []) => {
    const yaml = config(`${sandbox.url}/__sandbox/vulnerability-feed`);
    writeFileSync(join(dir, 'svc-gitops.yaml'), installed ? `${yaml}  installed: true\n` : yaml);
    return cli(['plan', '--format', 'json', ...argv], { env, cwd: dir, now: () => T0 });
  };
  const vulnerable = (planned: Plan) =>
    planned.security?.vulnerable.map((v) => [v.slug, v.from, v.to, v.fix, v.site_ids]);

  it('with security.installed the latest, affected version is listed as vulnerable with no fix', async () => {
    const without = JSON.parse((await plan(false)).stdout) as Plan;
    expect(vulnerable(without)).toEqual([[CF7, '5.0', '5.1', 'no-fix', [5, 6]]]);

    const run = await plan(true);
    expect(run.code, run.stderr).toBe(0);
    const planned = JSON.parse(run.stdout) as Plan;
    expect(planSchemaErrors(planned)).toBe('');
    expect(vulnerable(planned)).toEqual([
      [CF7, '5.0', '5.1', 'no-fix', [5, 6]],
      [CF7, '5.1', '', 'no-fix', [7, 8]],
    ]);
    expect(
      planned.notes.find((n) => n.kind === 'vulnerable' && n.message.includes('no pending update moves it'))
        ?.site_ids,
    ).toEqual([7, 8]);
    // The actions are those of the plan without it: only the reads grew.
    expect(planned.actions).toEqual(without.actions);
    // --fail-on-vulnerable counts the new sites too.
    const failing = await plan(true, ['--fail-on-vulnerable']);
    expect(failing.code).toBe(4);
    expect(failing.stderr).toContain('4 sites vulnerable with no fix (sites 5, 6, 7, 8)');
  });

  it('--target reads the installed items of the targeted sites only', async () => {
    const planned = JSON.parse((await plan(true, ['--target', '7'])).stdout) as Plan;
    expect(vulnerable(planned)).toEqual([[CF7, '5.1', '', 'no-fix', [7]]]);
  });
});
