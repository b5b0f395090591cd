import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { SvcError } from '../../errors.js';
import {
  DEFAULT_MS_PER_SITE,
  type Fleet,
  FleetError,
  generateFleet,
  PROFILES,
  parseFleet,
  QUIRK_NAMES,
  type SandboxProfile,
  startSandbox,
} from '../../sandbox/index.js';
import type { CliContext } from '../context.js';
import { jsonLine, type TextOrJson, textOrJsonOption } from '../format-option.js';
import { packageFile } from '../package-files.js';
import { fleetFormatHelp } from './sandbox-help.js';
import { parseGenerate, parseQuirkFlags, parseSiteCost, parseSurfaces } from './sandbox-options.js';

/** The demo fleet ships with the package: located from this file, never from the cwd. */
export const DEMO_FLEET_PATH = packageFile('examples/sandbox/demo-fleet.yaml');

interface SandboxFlags {
  fleet?: string;
  profile: string;
  port: string;
  state?: string;
  tls?: boolean;
  namespace?: string;
  seed: string;
  clock: 'fast' | 'realistic';
  format: TextOrJson;
  queueThreshold: string;
  batchLimit: string;
  quirk: string[];
  surfaces: string;
  generate?: string;
  maxRequestLine: string;
  siteCost?: string;
}

/** The quirks beside the options; the examples are with every command's (help.ts). */
const QUIRKS = `
Quirks (--quirk NAME=on|off; all on in compat-6.1 and next, all off in spec):
${wrap(QUIRK_NAMES, '  ', 96)}`;

export function registerSandbox(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('sandbox')
    .description(
      'run the sandbox dashboard on 127.0.0.1 and print its connection settings (SVC_URL=…) until interrupted',
    )
    .option('--fleet <file>', 'fleet file (YAML) that seeds the state (default: the bundled demo fleet)')
    .option(
      '--generate <spec>',
      'generate the fleet instead: sites=N[,pending=N][,ignored=N][,plugins=N][,flagged=PERCENT][,seed=N]',
    )
    .addOption(
      new Option('--profile <profile>', 'dashboard behaviour to serve')
        .choices(PROFILES)
        .default('compat-6.1'),
    )
    .option(
      '--quirk <name=on|off>',
      'switch one shipped-release quirk on or off over the profile (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--surfaces <list>',
      'APIs the dashboard offers: abilities,rest | abilities | rest',
      'abilities,rest',
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '0')
    .option('--state <file>', 'persist the state to this JSON file and load it at start')
    .option('--tls', 'serve HTTPS with a self-signed certificate made at start')
    .option('--namespace <name>', 'product namespace in paths, ability names and error codes', 'svc')
    .option('--seed <n>', 'seed of fault injection and job ids', '1')
    .addOption(
      new Option('--clock <mode>', 'job clock: fast (each status poll advances one chunk) or realistic')
        .choices(['fast', 'realistic'])
        .default('fast'),
    )
    .option('--queue-threshold <n>', 'run calls over this many sites are queued', '200')
    .option('--batch-limit <n>', 'global /batch item limit', '100')
    .option(
      '--max-request-line <bytes>',
      'longest request line and header line accepted, CRLF included, as nginx (8192); 0 = no limit',
      '8192',
    )
    .option(
      '--site-cost <ms>',
      `milliseconds a list-updates-v1 request costs per site it processes, 0 = off (default: ${DEFAULT_MS_PER_SITE} in compat-6.1 and next, 0 in spec; env SVC_SANDBOX_SITE_COST_MS)`,
    )
    .addOption(textOrJsonOption('the URL and the SVC_* settings in one document'))
    .addHelpText('after', QUIRKS)
    .addHelpText('after', fleetFormatHelp)
    .action(async (flags: SandboxFlags) => {
      await runSandbox(ctx, flags);
      setExit(0);
    });
}

async function runSandbox(ctx: CliContext, flags: SandboxFlags): Promise<void> {
  const profile = flags.profile;
  const quirks = parseQuirkFlags(flags.quirk);
  const surfaces = parseSurfaces(flags.surfaces);
  if (flags.generate && flags.fleet)
    throw new SvcError('USAGE', '--generate and --fleet cannot be combined', { hint: 'use one of them' });
  const generated = flags.generate ? parseGenerate(flags.generate) : undefined;
  const port = parseInteger(flags.port, '--port', 0, 65535);
  const seed = parseInteger(flags.seed, '--seed', 0, 2 ** 31 - 1);
  const queueThreshold = parseInteger(flags.queueThreshold, '--queue-threshold', 1, 1_000_000);
  const batchLimit = parseInteger(flags.batchLimit, '--batch-limit', 1, 1_000_000);
  const requestLimit = parseInteger(flags.maxRequestLine, '--max-request-line', 0, 1_000_000);
  const fleet = generated
    ? generateFleet(generated)
    : readFleet(ctx, flags.fleet ? resolve(ctx.cwd, flags.fleet) : DEMO_FLEET_PATH);
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      fleet,
      profile: profile as SandboxProfile,
      quirks,
      surfaces,
      port,
      seed,
      clock: flags.clock,
      queueThreshold,
      batchLimit,
      requestLimits: { requestLine: requestLimit, headerBlock: requestLimit },
      ...(flags.siteCost === undefined ? {} : { siteCost: parseSiteCost(flags.siteCost) }),
      tls: flags.tls === true,
      namespace: flags.namespace ?? 'svc',
      ...(flags.state ? { statePath: resolve(ctx.cwd, flags.state) } : {}),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    const hint = inUse
      ? 'choose another --port, or --port 0 for any free port'
      : 'check --state, --tls and --namespace';
    throw new SvcError('IO_ERROR', message, { hint, cause: error });
  }
  // One write: a script that waits for `sandbox.env` to be non-empty then sources it must never
  // read the URL without the login that follows it.
  const lines = Object.entries(sandbox.env()).map(([name, value]) => `${name}=${shellValue(value)}\n`);
  ctx.stdout.write(
    flags.format === 'json'
      ? jsonLine({ kind: 'sandbox', url: sandbox.url, env: sandbox.env() })
      : lines.join(''),
  );
  // A state file that exists wins over --fleet: say which one is served.
  const source = sandbox.restoredFrom ? ` restored from ${sandbox.restoredFrom}` : '';
  ctx.stderr.write(
    `sandbox dashboard (${profile}) serving ${sandbox.siteCount()} sites${source} at ${sandbox.url}; stop with Ctrl-C\n`,
  );
  await untilAborted(ctx.signal);
  try {
    await sandbox.close();
  } catch (error) {
    throw new SvcError('IO_ERROR', `sandbox stopped, but ${(error as Error).message}`, {
      hint: 'check that the --state directory exists and is writable',
      cause: error,
    });
  }
  ctx.stderr.write('sandbox stopped\n');
}

/** Quotes a value for `eval` and `.env` files when it holds anything beyond safe characters. */
export function shellValue(value: string): string {
  return /^[A-Za-z0-9_./:=+@-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function readFleet(ctx: CliContext, path: string): Fleet {
  let text: string;
  try {
    text = ctx.fs.readFileSync(path, 'utf8') as string;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SvcError('IO_ERROR', `cannot read the fleet file ${path} (${code})`, {
      hint: 'check the --fleet path',
    });
  }
  try {
    return parseFleet(text, path);
  } catch (error) {
    if (error instanceof FleetError) {
      throw new SvcError('CONFIG_INVALID', error.message, {
        hint: '`svc-gitops sandbox --help` shows the fleet file format',
      });
    }
    throw error;
  }
}

function parseInteger(text: string, flag: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new SvcError('USAGE', `${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Comma-separated names in lines of at most `width` characters. */
function wrap(names: readonly string[], indent: string, width: number): string {
  const lines: string[] = [];
  let line = indent;
  for (const name of names) {
    if (line.length + name.length + 2 > width && line !== indent) {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${name}, `;
  }
  lines.push(line.replace(/, $/, ''));
  return lines.join('\n');
}
