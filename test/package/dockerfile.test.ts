import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationSeverity, type ValidatorSettings, validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';

/**
 * The Dockerfile, linted: no machine that runs this suite is known to have a Docker daemon (CI
 * builds the image only where one answers), so it is checked by the Dockerfile language server's
 * validator with every optional rule raised to an error, then by the rules this image must keep.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };

/** Instructions with their arguments, continuation lines joined and comments left out. */
const instructions = text
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => {
    const [keyword = '', ...rest] = line.split(/\s+/);
    return { keyword, args: rest.join(' ') };
  });
const stages = instructions.reduce<Array<typeof instructions>>((all, instruction) => {
  if (instruction.keyword === 'FROM') all.push([]);
  all.at(-1)?.push(instruction);
  return all;
}, []);

describe('Dockerfile', () => {
  it('passes the Dockerfile validator with every rule an error', () => {
    const error = ValidationSeverity.ERROR;
    const strict: ValidatorSettings = {
      deprecatedMaintainer: error,
      directiveCasing: error,
      emptyContinuationLine: error,
      instructionCasing: error,
      instructionCmdMultiple: error,
      instructionEntrypointMultiple: error,
      instructionHealthcheckMultiple: error,
      instructionJSONInSingleQuotes: error,
      instructionWorkdirRelative: error,
    };
    expect(validate(text, strict).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  it('builds from versioned base images, never `latest`', () => {
    const bases = instructions.filter((i) => i.keyword === 'FROM').map((i) => i.args.split(' ')[0] ?? '');
    expect(bases.length).toBe(2);
    for (const base of bases) expect(base, base).toMatch(/^[a-z0-9./-]+:(?!latest)[\w.-]+$/);
  });

  it('installs from the lockfile, and copies everything the packed package holds', () => {
    const build = stages[0] ?? [];
    expect(build.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args))).toBe(true);
    const copied = build.filter((i) => i.keyword === 'COPY').flatMap((i) => i.args.split(' ').slice(0, -1));
    for (const needed of [
      'package.json',
      'package-lock.json',
      'tsconfig.build.json',
      'src',
      'LICENSE',
      ...PACKAGE.files.filter((f) => f !== 'dist' && !f.startsWith('!')),
    ])
      expect(copied, needed).toContain(needed);
    for (const source of copied) expect(existsSync(join(ROOT, source)), source).toBe(true);
  });

  it('runs the installed CLI as an unprivileged user, in exec form', () => {
    const final = stages.at(-1) ?? [];
    expect(final.filter((i) => i.keyword === 'USER').at(-1)?.args).toBe('node');
    expect(final.find((i) => i.keyword === 'ENTRYPOINT')?.args).toBe('["svc-gitops"]');
    expect(final.some((i) => i.keyword === 'RUN' && /npm install -g --omit=dev/.test(i.args))).toBe(true);
  });

  it('keeps dependencies, build output and secrets out of the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', 'dist', '.git', '.env', '.svc-gitops'])
      expect(ignored, entry).toContain(entry);
  });
});
