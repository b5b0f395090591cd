import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, SvcError } from '../../errors.js';
import type { ServerLimits, ToolServer } from '../../mcp/index.js';
import { terminalText } from '../../render/index.js';
import { settingVariable } from '../../settings/index.js';
import type { CliContext } from '../context.js';
import { type TextOrJson, textOrJsonOption } from '../format-option.js';

interface McpFlags {
  http?: string;
  namespace?: string;
  chdir?: string;
  /** Only errors before the server starts use it: the protocol owns stdout after that. */
  format: TextOrJson;
}

const NAMESPACE = /^[a-z][a-z0-9_-]{0,39}$/;

/**
 * `svc-gitops mcp [--http PORT] [--namespace NAME] [--chdir DIR]`: the tool server for AI clients,
 * over stdio (the client starts it) or Streamable HTTP on loopback with a bearer token. It runs
 * until the client closes stdin, or until SIGINT/SIGTERM. Logs go to stderr only, masked like all
 * output. `--chdir` names the working directory (settings file, desired state, journal): clients
 * start servers in `/` or wherever they were started, and some ignore a `cwd` in their config.
 */
export function registerMcp(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('mcp')
    .description('run the tool server for AI clients (MCP over stdio, or --http on loopback)')
    .option('--http <port>', 'serve Streamable HTTP on 127.0.0.1:PORT (needs httpToken / SVC_HTTP_TOKEN)')
    .addOption(textOrJsonOption('an error before the server starts; the protocol owns stdout after that'))
    .option(
      '--namespace <name>',
      'product name for tool prefixes, NAME_* variables, ~/.config/NAME-mcp/ and the interface',
    )
    .option(
      '--chdir <dir>',
      'work in DIR (settings.json, svc-gitops.yaml, .svc-gitops/), wherever the client starts the server',
    )
    .action(async (flags: McpFlags) => setExit(await runMcp(ctx, flags)));
}

export async function runMcp(ctx: CliContext, flags: McpFlags): Promise<number> {
  if (flags.namespace !== undefined && !NAMESPACE.test(flags.namespace)) {
    throw new SvcError('USAGE', `--namespace ${flags.namespace} is not a valid name`, {
      hint: 'lower-case letters, digits, - and _, starting with a letter (at most 40)',
    });
  }
  const port = flags.http === undefined ? undefined : parsePort(flags.http);
  const cwd = flags.chdir === undefined ? ctx.cwd : workingDirectory(ctx, flags.chdir);
  const log = (line: string) => ctx.stderr.write(`svc-gitops mcp: ${terminalText(line)}\n`);
  // Loaded by this command only: the protocol SDK and its schemas cost every other command
  // ~40 ms of start-up.
  const { createToolServer, serveHttp, serveStdio, serverSecrets } = await import('../../mcp/index.js');
  const make = (limits?: ServerLimits): ToolServer => {
    const server = createToolServer({
      ...(limits ? { limits } : {}),
      env: ctx.env,
      cwd,
      fs: ctx.fs,
      ...(ctx.settingsFs ? { settingsFs: ctx.settingsFs } : {}),
      homeDir: ctx.env.HOME || homedir(),
      now: ctx.now,
      log,
      ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
    });
    ctx.addSecrets?.(serverSecrets(server.settings()));
    return server;
  };
  const first = make();
  if (port !== undefined) {
    const token = first.settings().httpToken;
    await first.close();
    if (!token) {
      throw new SvcError('SETTINGS_INVALID', '--http needs a bearer token', {
        hint: `set httpToken in the settings file or ${settingVariable('httpToken', flags.namespace)} (at least 16 characters); clients send it as Authorization: Bearer <token>`,
      });
    }
    const running = await serveHttp({
      port,
      token,
      // One rate and data budget for the process, whichever session a call comes in on.
      newServer: () => make(first.limits),
      log,
      ...(flags.namespace === undefined ? {} : { product: flags.namespace }),
    });
    log(`listening on ${running.url} (loopback only, bearer token required)`);
    await untilAborted(ctx.signal);
    await running.close();
    return EXIT.ok;
  }
  if (!ctx.stdio) throw new SvcError('USAGE', 'mcp over stdio needs the process streams');
  const { closed } = await serveStdio(first, ctx.stdio.input, ctx.stdio.output, ctx.signal);
  log('ready on stdio');
  await closed;
  await first.close();
  return EXIT.ok;
}

/** `--chdir DIR` resolved against the directory the server was started in; it must be a directory. */
function workingDirectory(ctx: CliContext, dir: string): string {
  const full = resolve(ctx.cwd, dir);
  let isDirectory = false;
  try {
    isDirectory = ctx.fs.statSync(full).isDirectory();
  } catch {
    // Refused below, as any path that is not a directory.
  }
  if (!isDirectory) {
    throw new SvcError('USAGE', `--chdir ${dir}: ${full} is not a directory`, {
      hint: 'give the directory that holds svc-gitops.yaml (an absolute path works from any client)',
    });
  }
  return full;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new SvcError('USAGE', `--http ${text} is not a port number`, {
      hint: 'give a port such as 8765 (0 picks a free one)',
    });
  }
  return port;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
