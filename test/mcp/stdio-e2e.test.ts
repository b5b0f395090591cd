import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { PROFILES, REPO } from '../e2e/helpers.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { SMALL_CONFIG, startSmallSandbox } from './helpers.js';

/**
 * The built bin (`tsc -p tsconfig.build.json`, into a temporary package beside the repository's
 * schemas and node_modules) started by the SDK's stdio client, as an AI client starts it.
 */
let bin: string;
beforeAll(() => {
  const root = tempDirForFile('svc-gitops-mcp-build-');
  execFileSync(
    process.execPath,
    [
      join(REPO, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(REPO, 'tsconfig.build.json'),
      '--outDir',
      join(root, 'dist'),
    ],
    {
      cwd: REPO,
      stdio: 'pipe',
    },
  );
  fs.symlinkSync(join(REPO, 'schemas'), join(root, 'schemas'));
  fs.symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  fs.copyFileSync(join(REPO, 'package.json'), join(root, 'package.json'));
  bin = join(root, 'dist', 'cli', 'main.js');
}, 180_000);

describe.each(PROFILES)('svc-gitops mcp over stdio against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox(profile);
  });
  afterAll(() => sandbox.close());

  it('runs the agent flow validate → plan → apply with the token → no changes; logs only to stderr', async () => {
    const cwd = tempDirForFile('svc-gitops-mcp-stdio-');
    fs.writeFileSync(join(cwd, 'svc-gitops.yaml'), SMALL_CONFIG);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp'],
      cwd,
      env: { ...fastClientEnv(sandbox), HOME: cwd, PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('list_updates_v1');
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        const result = await client.callTool({ name, arguments: args });
        return {
          isError: result.isError === true,
          result: result.structuredContent as Record<string, unknown>,
        };
      };
      expect((await call('svc_validate')).result).toMatchObject({ valid: true });
      const plan = await call('svc_plan');
      expect(plan.result).toMatchObject({ has_changes: true, summary: { update: 4, ignore: 3 } });
      const applied = await call('svc_apply', {
        plan_id: plan.result.plan_id,
        confirmation_token: plan.result.confirmation_token,
        user_confirmed: true,
      });
      expect(applied).toMatchObject({
        isError: false,
        result: { applied: true, counts: { done: 7, failed: 0 } },
      });
      expect((await call('svc_plan')).result).toMatchObject({ has_changes: false });
      // The journal sits where the CLI keeps it, in the working directory.
      expect(fs.readdirSync(join(cwd, '.svc-gitops')).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    expect(stderr).toContain('svc-gitops mcp: ready on stdio');
    expect(stderr).not.toContain(sandbox.credentials.applicationPassword);
  });
});

describe('svc-gitops mcp --chdir, started elsewhere as clients start servers', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSmallSandbox('spec');
  });
  afterAll(() => sandbox.close());

  const start = async (cwd: string, args: string[]) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', ...args],
      cwd,
      env: {
        ...fastClientEnv(sandbox),
        HOME: tempDirForFile('svc-gitops-mcp-home-'),
        PATH: process.env.PATH ?? '',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(transport);
    return client;
  };

  it('reads the desired state of DIR from /; without it the refusal names the tool argument, not -c', async () => {
    const repo = tempDirForFile('svc-gitops-mcp-repo-');
    fs.writeFileSync(join(repo, 'svc-gitops.yaml'), SMALL_CONFIG);
    const there = await start('/', ['--chdir', repo]);
    try {
      const validated = await there.callTool({ name: 'svc_validate', arguments: {} });
      expect(validated.structuredContent).toMatchObject({ valid: true });
    } finally {
      await there.close();
    }
    const lost = await start('/', []);
    try {
      const refused = await lost.callTool({ name: 'svc_plan', arguments: {} });
      expect(refused.isError).toBe(true);
      const text = (refused.content as Array<{ text: string }>)[0]?.text ?? '';
      expect(text, text).toMatch(/the config argument/);
      expect(text).toMatch(/--chdir DIR/);
      expect(text).not.toMatch(/-c PATH/);
    } finally {
      await lost.close();
    }
  });
});
