/**
 * The README's main job: start the embedded sandbox dashboard with the demo fleet, then run the
 * real CLI against it as a user would: validate → plan (saved) → apply the saved plan → plan again.
 *
 *   npm run demo                      # compat-6.1 profile (the shipped dashboard's behaviour)
 *   npm run demo -- --profile spec    # the interface as specified
 *
 * Everything the run writes (saved plan, apply journal) goes to a temporary directory, removed at
 * the end. Exit 1 when a step exits with a code the demo does not expect.
 */
import * as fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliContext } from '../src/cli/context.js';
import { runCli } from '../src/cli/run.js';
import { loadFleet, type SandboxProfile, startSandbox } from '../src/sandbox/index.js';

const root = resolve(import.meta.dirname, '..');
let values: { profile?: string | undefined; config?: string | undefined };
try {
  ({ values } = parseArgs({
    options: {
      profile: { type: 'string', default: 'compat-6.1' },
      config: { type: 'string', default: join(root, 'examples/agency.yaml') },
    },
  }));
} catch (error) {
  usage((error as Error).message);
}
if (values.profile !== 'spec' && values.profile !== 'compat-6.1')
  usage(`unknown --profile "${values.profile}"`);
const profile: SandboxProfile = values.profile;
const config = resolve(values.config ?? '');

function usage(problem: string): never {
  process.stderr.write(
    `demo: ${problem}\nusage: npm run demo [-- --profile spec|compat-6.1] [--config FILE]\n`,
  );
  process.exit(1);
}

const sandbox = await startSandbox({
  fleet: await loadFleet(join(root, 'examples/sandbox/demo-fleet.yaml')),
  profile,
});
const workDir = mkdtempSync(join(tmpdir(), 'svc-gitops-demo-'));
const planFile = join(workDir, 'plan.json');
// The demo talks to its own sandbox only: settings of the shell (SVC_NAMESPACE, SVC_RATE_LIMIT,
// a state dir, …) or the per-user settings file (found through HOME) must not redirect or break it.
const inherited = Object.entries(process.env).filter(
  ([name]) => !name.startsWith('SVC_') || name === 'SVC_GITOPS_DEBUG',
);
const env: Record<string, string | undefined> = {
  ...Object.fromEntries(inherited),
  HOME: workDir,
  ...sandbox.env(),
  // The client's default of 60 calls a minute protects a real dashboard; against the local
  // sandbox it would only stall the apply step for a minute.
  SVC_RATE_LIMIT: '0',
};
const context = (stepEnv: Record<string, string>): CliContext => ({
  stdout: process.stdout,
  stderr: process.stderr,
  env: { ...env, ...stepEnv },
  cwd: workDir,
  fs,
  signal: new AbortController().signal,
  now: () => new Date(),
});

/** A setting one step runs with, shown in its command line with the reason, so a copy reproduces it. */
interface StepSetting {
  env: Record<string, string>;
  why: string;
}

const bold = (s: string) => (process.stdout.isTTY && !env.NO_COLOR ? `\x1b[1m${s}\x1b[22m` : s);
async function step(
  title: string,
  argv: string[],
  expected: number[],
  setting?: StepSetting,
): Promise<number> {
  const prefix = Object.entries(setting?.env ?? {})
    .map(([name, value]) => `${name}=${value} `)
    .join('');
  const why = setting ? `# ${setting.why}\n` : '';
  process.stdout.write(
    `\n${bold(`━━ ${title}`)}\n${why}${bold(`$ ${prefix}svc-gitops ${argv.join(' ')}`)}\n\n`,
  );
  const code = await runCli(argv, context(setting?.env ?? {}));
  process.stdout.write(`\n(exit code ${code})\n`);
  if (!expected.includes(code))
    throw new Error(`step "${title}" exited ${code}, expected ${expected.join(' or ')}`);
  return code;
}

process.stdout.write(
  `Sandbox dashboard (${profile}) with the demo fleet at ${sandbox.url}\nWorking directory: ${workDir} (removed at the end)\nEvery command runs with the sandbox's settings (\`svc-gitops sandbox\` prints them) and SVC_RATE_LIMIT=0 (no pacing against a local sandbox).\n`,
);
let failed = false;
try {
  await step('1. Validate the desired state', ['validate', '-c', config], [0]);
  await step(
    '2. Plan: the dry-run preview, saved for review',
    ['plan', '-c', config, '--out', planFile, '--detailed-exitcode'],
    [2],
  );
  // The demo fleet has one site whose child server does not answer: apply reports that update as
  // failed (exit 1) and the truthful report is part of the demo.
  // The demo's policies include core updates (high risk): safe mode, on by default, refuses them
  // at apply (plan warned of it). Turning it off for this step is the documented way to allow them.
  await step('3. Apply exactly the saved (reviewed) plan', ['apply', planFile, '-c', config], [0, 1], {
    env: { SVC_SAFE_MODE: 'false' },
    why: 'the plan holds core updates (high risk), which safe mode (on by default) refuses; allowed after review',
  });
  const again = await step(
    '4. Plan again: only what failed is left',
    ['plan', '-c', config, '--detailed-exitcode'],
    [0, 2],
  );
  process.stdout.write(
    again === 0
      ? '\nDemo finished: the dashboard now matches the desired state.\n'
      : '\nDemo finished: only what failed during apply is left to do (see the plan above).\n',
  );
} catch (error) {
  failed = true;
  process.stderr.write(`\ndemo failed: ${(error as Error).message}\n`);
} finally {
  await sandbox.close();
  rmSync(workDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
