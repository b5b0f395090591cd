import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { PROFILES, REPO, sandboxEnv, tempDir } from './helpers.js';

/**
 * Names come from the dashboard, which takes them from the sites: a hostile plugin or site name
 * must reach neither the pull-request markdown as markup, mentions or links, nor the terminal
 * as escape sequences, however the name travels (abilities API in both profiles).
 */
const HOSTILE_PLUGIN = '<img src=x onerror=alert(1)> @everyone [click](https://evil.test) \u001b[2J';
const HOSTILE_SITE = '**Pwned** | @admins #1 <script>x</script>';
const FLEET = `
sites:
  - id: 1
    url: https://hostile.demo.test/
    name: ${JSON.stringify(HOSTILE_SITE)}
    plugins:
      akismet/akismet.php: { name: ${JSON.stringify(HOSTILE_PLUGIN)}, version: 5.3.6, update: 5.3.7 }
`;

describe.each(PROFILES)('hostile names from the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ fleet: parseFleet(FLEET), profile });
    env = sandboxEnv(sandbox, tempDir());
  });
  afterAll(() => sandbox.close());

  it('markdown carries no raw tag, link, image or mention', async () => {
    const result = await cli(['plan', '-c', 'examples/minimal.yaml', '--format', 'markdown'], {
      env,
      cwd: REPO,
    });
    expect(result.code, result.stderr).toBe(0);
    // The name did arrive, escaped: the test is not passing because it was left out.
    expect(result.stdout).toContain('&lt;img src=x onerror=alert(1)&gt;');
    for (const raw of ['<img', '<script', '@everyone', '@admins', '](https://', '**Pwned**', '\u001b']) {
      expect(result.stdout).not.toContain(raw);
    }
  });

  it('text output carries no terminal escape sequence', async () => {
    const result = await cli(['plan', '-c', 'examples/minimal.yaml', '--group-by', 'item'], {
      env,
      cwd: REPO,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('onerror=alert(1)> @everyone');
    expect(result.stdout).not.toContain('\u001b');
  });
});
