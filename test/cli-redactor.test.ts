import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, startDemo, tempDir } from './e2e/helpers.js';
import { cli } from './helpers/cli.js';

/**
 * The last line of defence: whatever the CLI prints passes a mask of every credential it was
 * given, in each spelling a server or a path may hold it. A config path made of a secret puts the
 * secret into a message verbatim, past every other layer (no server is involved).
 */
describe('the CLI masks credentials in everything it prints', () => {
  it('each credential variable, in each spelling: as given, without spaces, percent-encoded, token halves', async () => {
    const env = {
      HOME: tempDir(),
      SVC_APP_PASSWORD: 'Zq9x Wv8u Ts7r',
      SVC_TOKEN: 'cs_REDACTsecretAAAA==ck_REDACTkeyBBBB',
      GITHUB_TOKEN: 'ghs_REDACTgithubTOKEN',
    };
    const spellings = [
      'Zq9x Wv8u Ts7r',
      'Zq9xWv8uTs7r',
      'Zq9x%20Wv8u%20Ts7r',
      'cs_REDACTsecretAAAA==ck_REDACTkeyBBBB',
      'cs_REDACTsecretAAAA',
      'ck_REDACTkeyBBBB',
      'ghs_REDACTgithubTOKEN',
    ];
    for (const secret of spellings) {
      const run = await cli(['validate', '-c', `${secret}.yaml`], { env, cwd: tempDir() });
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain('[redacted].yaml');
      expect(run.stdout + run.stderr, secret).not.toContain(secret);
    }
  });

  it("a settings file's password is masked too, in a message that quotes it", async () => {
    const password = 'Fq2m Rk7d Pw3z';
    const sandbox = await startDemo('compat-6.1', {
      credentials: { username: 'ops', applicationPassword: password, token: 'cs_x==ck_y' },
    });
    try {
      const cwd = tempDir();
      const settings = {
        dashboardUrl: sandbox.url,
        username: 'ops',
        applicationPassword: password,
        allowHttp: true,
      };
      writeFileSync(join(cwd, 'settings.json'), JSON.stringify(settings));
      copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
      // A --target naming no site is quoted back in the error, after the settings were read.
      const run = await cli(['plan', '--target', password], { env: { HOME: tempDir() }, cwd });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('[redacted]');
      expect(run.stdout + run.stderr).not.toContain(password);
    } finally {
      await sandbox.close();
    }
  });
});
