import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDesiredYaml } from '../../scripts/bench/validate.js';
import { REPO, tempDir } from './helpers.js';

const MAIN = join(REPO, 'src/cli/main.ts');
const TSX = import.meta.resolve('tsx');

/**
 * A real SIGTERM into a real `validate` of a large directory (four valid files of about 2 MB).
 * Reading and checking them takes seconds of synchronous work; the signal must still be handled
 * during it: the command stops, says so, and exits 130 (interrupted) instead of finishing.
 */
describe('SIGTERM while validating a large desired state', () => {
  it('stops the load and exits 130 within 5 s of the signal', async () => {
    const cwd = tempDir('svc-gitops-validate-sigterm-');
    const dir = join(cwd, 'svc-gitops');
    mkdirSync(dir);
    const text = generateDesiredYaml(45_000);
    // Policy names are unique across the files; everything else may repeat (equal groups, waves).
    for (const name of ['a', 'b', 'c', 'd'])
      writeFileSync(join(dir, `${name}.yaml`), text.replace(/name: (routine|core)\b/g, `name: $1-${name}`));
    const child = spawn(process.execPath, ['--import', TSX, MAIN, 'validate', '-c', 'svc-gitops'], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.on('exit', (code) => resolve({ code, at: Date.now() })),
    );
    // The files are read (and the signal handlers long installed) once this line is out; the
    // parsing and checking that take the time follow it.
    const reading = new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (/validating 4 files, [\d.]+ MiB/.test(stderr)) resolve();
      });
    });
    // Without the line (a build that does not announce it) the signal goes out after 15 s anyway,
    // so such a build fails on its exit code, not on the wait.
    await Promise.race([reading, exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const ended = await Promise.race([
      exited,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 30_000)),
    ]);
    if (!ended) child.kill('SIGKILL');
    expect(ended?.code, `${stdout}\n${stderr}`).toBe(130);
    expect(ended!.at - signalledAt).toBeLessThan(5_000);
    expect(stderr).toContain('svc-gitops: interrupted: stopped while reading the desired state');
    expect(stdout).toBe('');
  });
});
