import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * The approval flags that contradict each other are the CLI's own words: refused with
 * CONFLICTING_PARAMETERS (exit 2) before any setting, file or dashboard is read.
 */
describe('apply: contradicting approval flags', () => {
  it.each([
    [['apply', '--auto-approve', '--dry-run'], '--auto-approve and --dry-run contradict each other'],
    [['apply', 'a.json', '--reviewed', 'b.json'], 'not both'],
    [['apply', 'a.json', '--resume'], '--resume plans again; it takes no plan file'],
    [['apply', '--resume', '--target', '1'], '--target only narrows a plan made now'],
  ])('%j is refused before anything is read', async (argv, words) => {
    const run = await cli(argv, { cwd: tempDirForFile('svc-gitops-flags-'), env: { SVC_URL: '' } });
    expect(run.stderr).toContain('CONFLICTING_PARAMETERS');
    expect(run.stderr).toContain(words);
    expect(run.stderr).toContain('svc-gitops apply --help');
  });
});
