import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { PROFILES, sandboxEnv, sandboxStats, tempDir } from './helpers.js';

/**
 * A fleet's apply behind a front server's 8 KiB request line, end to end through the CLI, in all
 * three approval paths. The re-reads before and after writing name thousands of sites; a single
 * query with every site ID is refused (414), which made `apply PLANFILE` fail before writing and
 * the other two report "finished unconfirmed". Each path must complete and confirm every action.
 *
 * The suite runs 1,000 sites (twice the size where it broke, four times behind 8 KiB); `npm run soak:apply-fleet`
 * runs the same at 10,000 sites (SVC_E2E_FLEET_SITES).
 */
const SITES = Number(process.env.SVC_E2E_FLEET_SITES ?? 1000);

const CONFIG = `version: 1
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
approval:
  max_sites: 1000000
`;

const fleet = generateFleet({ sites: SITES, pendingPerSite: 3, seed: 17 });

async function world(profile: (typeof PROFILES)[number]) {
  // The sandbox refuses request lines over 8 KiB by default, as nginx does.
  const sandbox = await startSandbox({ fleet, profile });
  const cwd = tempDir('svc-gitops-fleet-');
  writeFileSync(join(cwd, 'svc-gitops.yaml'), CONFIG);
  const env = { ...sandboxEnv(sandbox, tempDir()), SVC_RATE_LIMIT: '0', SVC_REQUEST_TIMEOUT: '120000' };
  return { sandbox, cwd, env };
}

async function expectConfirmed(
  sandbox: RunningSandbox,
  run: { code: number; stdout: string; stderr: string },
) {
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  const report = JSON.parse(run.stdout) as { counts: Record<string, number>; outcomes?: unknown };
  expect(report.counts.failed).toBe(0);
  expect(run.stdout).not.toContain('"unverified":true');
  const stats = await sandboxStats(sandbox);
  expect(stats.requests['refused: too large'] ?? 0).toBe(0);
  // Grouped calls, not one per site: far fewer run-updates requests than sites.
  expect(stats.abilities['svc/run-updates-v1'] ?? 0).toBeLessThan(SITES / 20);
}

describe.each(PROFILES)(`apply of a ${SITES}-site fleet behind an 8 KiB request line (%s)`, (profile) => {
  // One test per approval path: each applies the whole fleet on a sandbox of its own.
  it.each(['planfile', 'auto-approve', 'reviewed'] as const)(
    'apply (%s) completes and confirms',
    async (mode) => {
      const { sandbox, cwd, env } = await world(profile);
      try {
        let argv: string[];
        if (mode === 'auto-approve') argv = ['apply', '--auto-approve', '--format', 'json'];
        else {
          const planned = await cli(['plan', '--out', 'plan.json', '--format', 'json'], { env, cwd });
          expect(planned.code, planned.stderr).toBe(0);
          argv =
            mode === 'planfile'
              ? ['apply', 'plan.json', '--format', 'json']
              : ['apply', '--reviewed', 'plan.json', '--format', 'json'];
        }
        await fetch(`${sandbox.url}/__sandbox/stats/reset`, { method: 'POST' });
        const run = await cli(argv, { env, cwd });
        await expectConfirmed(sandbox, run);
      } finally {
        await sandbox.close();
      }
    },
    600_000,
  );
});
