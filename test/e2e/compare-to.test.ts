import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { type GitRepo, gitRepo } from '../helpers/git-repo.js';
import { markdownStructure } from '../helpers/markdown-structure.js';
import { resetStats, sandboxEnv, sandboxStats, startDemo, tempDir } from './helpers.js';

/** examples/minimal.yaml without its ignore rule: the base of the pull request. */
const BASE = `version: 1
updates:
  - name: routine
    sites: [all]
    kinds: [plugins, themes, translations]
    max: minor
`;
/** The pull request: one ignore rule, its plugin on line 9. */
const HEAD = `${BASE}ignores:
  rules:
    - sites: [all]
      plugins: [woocommerce/woocommerce.php]
`;

/**
 * The pull-request comment against its base, end to end: the 10,000-site reference fleet (as
 * test/e2e/fleet-scale.test.ts and scripts/bench build it) behind the sandbox, the desired state
 * in a real git repository, the base read from git at the merge base.
 */
describe('comment --compare-to at 10,000 sites', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let repo: GitRepo;

  beforeAll(async () => {
    const fleet = generateFleet({ sites: 10_000, pendingPerSite: 6, ignoredPerSite: 3, seed: 2026 });
    sandbox = await startSandbox({ fleet });
    env = sandboxEnv(sandbox, tempDir());
    repo = gitRepo(tempDir('svc-gitops-repo-'));
    repo.commit({ 'svc-gitops.yaml': BASE }, 'base');
    repo.git('checkout', '-q', '-b', 'feature');
  }, 60_000);
  afterAll(async () => sandbox?.close());

  const comment = async (...argv: string[]) => {
    await resetStats(sandbox);
    const result = await cli(['comment', '--dry-run', '--quiet', ...argv], { env, cwd: repo.dir });
    expect(result.code, result.stderr).toBe(0);
    return { ...result, requests: (await sandboxStats(sandbox)).requests_total };
  };

  it('shows the one added ignore rule in its first 10 lines, with no extra dashboard call', async () => {
    repo.commit({ 'svc-gitops.yaml': HEAD }, 'ignore woocommerce');
    const compared = await comment('--compare-to', 'main');
    const plain = await comment();
    expect(compared.requests).toBe(plain.requests);

    const first = compared.stdout.split('\n').slice(0, 10).join('\n');
    const lead = first.split('\n').find((line) => line.startsWith('**This change**'));
    expect(lead, first).toMatch(
      /: [\d,]+ sites ignore plugin woocommerce\/woocommerce\.php \(svc-gitops\.yaml:9\); [\d,]+ pending plugin woocommerce\/woocommerce\.php updates leave the plan\./,
    );
    const sites = Number(/: ([\d,]+) sites ignore/.exec(lead!)![1]!.replace(/,/g, ''));
    expect(sites).toBeGreaterThan(1_000);
    // The rows of the change: one per item and direction, the rule cited by file:line.
    expect(first).toMatch(
      /^\| enters: \+ ignore \| plugin woocommerce\/woocommerce\.php \| {2}\| [\d,]+ \| {2}\| ignored by the desired state \(svc-gitops\.yaml:9\) \|/m,
    );
    expect(first).toMatch(
      /^\| leaves: ~ update \| plugin woocommerce\/woocommerce\.php \| [^|]+ → [^|]+ \| [\d,]+ \| {2}\| was: policy "routine"/m,
    );
    // One title; the backlog follows the change.
    expect(compared.stdout.match(/svc-gitops\*\* plan for config/g)).toHaveLength(1);
    expect(compared.stdout).not.toContain('## svc-gitops plan');
    expect(compared.stdout.indexOf('### The whole plan after the merge (backlog)')).toBeGreaterThan(
      compared.stdout.indexOf('**This change**'),
    );
    // As GitHub's markdown reads it: no broken row, at most one table per section.
    const structure = markdownStructure(compared.stdout);
    expect(structure.problems).toEqual([]);
    expect(structure.sections.filter((section) => section.tables > 1)).toEqual([]);
    expect(structure.sections[0]).toEqual({ title: '(top)', tables: 1 });
    expect(structure.tables).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it('says first that a pull request changes nothing', async () => {
    repo.git('checkout', '-q', 'main');
    repo.git('checkout', '-q', '-B', 'nothing');
    repo.commit({ 'README.md': 'docs only\n' }, 'docs');
    const { stdout } = await comment('--compare-to', 'main');
    const lines = stdout.split('\n');
    const firstContent = lines.slice(1).find((line) => line !== '' && !line.startsWith('**svc-gitops**'));
    expect(firstContent).toMatch(
      /^\*\*This change:\*\* nothing, against `main` \(merge base `[0-9a-f]{7}`\): the desired state is the same/,
    );
    expect(lines.indexOf(firstContent!)).toBeLessThan(10);
  }, 120_000);
});

/** The same on the demo fleet: a config directory, the local `plan --compare-to`, and the fallback. */
describe('plan and comment --compare-to on the demo fleet', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let repo: GitRepo;

  beforeAll(async () => {
    sandbox = await startDemo('spec');
    env = sandboxEnv(sandbox, tempDir());
    repo = gitRepo(tempDir('svc-gitops-repo-'));
    repo.commit({ 'fleet/00-updates.yaml': BASE }, 'base');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit({ 'fleet/10-ignores.yaml': HEAD.replace(BASE, 'version: 1\n') }, 'a second file');
  }, 120_000);
  afterAll(async () => sandbox?.close());

  it('plan --compare-to names the rule in the new file of a config directory', async () => {
    const run = await cli(['plan', '-c', 'fleet', '--quiet', '--compare-to', 'main'], { env, cwd: repo.dir });
    expect(run.code, run.stderr).toBe(0);
    const [lead] = run.stdout.split('\n');
    expect(lead).toMatch(
      /^This change against main \(merge base [0-9a-f]{7}\): \d+ sites ignore plugin woocommerce\/woocommerce\.php \(fleet\/10-ignores\.yaml:4\); \d+ pending plugin woocommerce\/woocommerce\.php updates leave the plan\.$/,
    );
    expect(run.stdout).toMatch(/^ {2}enters +\+ ignore/m);
    const json = await cli(['plan', '-c', 'fleet', '--format', 'json', '--compare-to', 'main'], {
      env,
      cwd: repo.dir,
    });
    expect(json.code).toBe(1);
    expect(json.stdout + json.stderr).toContain('--compare-to shows the difference in text or markdown');
  });

  it('a config the pull request adds: every action is new', async () => {
    repo.commit({ 'added.yaml': HEAD }, 'a new config');
    const run = await cli(['plan', '-c', 'added.yaml', '--quiet', '--compare-to', 'main'], {
      env,
      cwd: repo.dir,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe(
      'The base has no desired state at this path: every action is new.',
    );
    const plan = await cli(['plan', '-c', 'added.yaml', '--quiet', '--format', 'json'], {
      env,
      cwd: repo.dir,
    });
    const { summary } = JSON.parse(plan.stdout) as { summary: { ignore: number; update: number } };
    expect(run.stdout).toContain(
      `${summary.ignore} sites ignore plugin woocommerce/woocommerce.php (added.yaml:9)`,
    );
  });

  it('a base that cannot be read leaves the whole plan, saying why at the top', async () => {
    const run = await cli(
      ['comment', '-c', 'fleet', '--dry-run', '--quiet', '--compare-to', 'no-such-branch'],
      {
        env,
        cwd: repo.dir,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').slice(0, 5).join('\n')).toContain(
      "**This change:** not known: the base's desired state could not be read (cannot find the merge base of no-such-branch and HEAD; fetch the base branch",
    );
    expect(run.stdout).toContain('### The whole plan');
    expect(run.stderr).toContain('warning: cannot compare with no-such-branch');
  });
});
