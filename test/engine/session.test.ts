import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, openSession, resolveTargets, type SvcError } from '../../src/index.js';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * The engine's session is the one front door: a plan made through it carries the refusals the
 * merge-time apply would meet (codes with data, no front end's words), and every front end shows
 * that one list; strict comes from the request or the settings.
 */
const FLEET = `sites:
  - id: 1
    url: https://site-1.demo.test/
    core: 6.8.1 -> 6.8.3
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
`;
const TYPO = `version: 1
updates:
  - {name: core, sites: [all], kinds: [core], max: minor}
ignores:
  rules:
    - {sites: [all], plugins: [akismet.php]}
`;
const sandbox = sandboxPer('suite', () => startSandbox({ fleet: parseFleet(FLEET) }));
const dir = tempDirForFile('svc-gitops-session-');
fs.writeFileSync(join(dir, 'svc-gitops.yaml'), TYPO);
fs.writeFileSync(join(dir, 'none.yaml'), 'version: 1\n');
const env = (extra: Record<string, string> = {}) => ({
  ...fastClientEnv(sandbox),
  SVC_ALLOW_HTTP: 'true',
  HOME: dir,
  ...extra,
});
const session = (extra: Record<string, string> = {}) =>
  openSession({
    settings: () => loadSettings({ env: env(extra), cwd: dir, fs, homeDir: dir }).settings,
    fs,
    cwd: dir,
    now: () => new Date(),
  });

describe('the session', () => {
  it('plans with the refusals the merge-time apply would meet, as codes with data', async () => {
    const lenient = session();
    const planned = await lenient.plan();
    await lenient.close();
    expect(planned.refusals.map((refusal) => refusal.code)).toEqual(['SAFE_MODE_BLOCKED']);
    expect(planned.refusals[0]?.details).toEqual({ reason: 'safe-mode', high_risk: 1 });
    expect(planned.unknown.map((name) => name.suggestion)).toEqual(['akismet/akismet.php']);
    // No front end's words: no flag, no variable.
    for (const refusal of planned.refusals) expect(refusal.message).not.toMatch(/--|SVC_/);

    const strict = session({ SVC_STRICT: 'true', SVC_SAFE_MODE: 'false' });
    const judged = await strict.plan();
    await strict.close();
    expect(judged.strict).toBe(true);
    expect(judged.refusals.map((refusal) => refusal.code)).toEqual(['UNKNOWN_NAMES']);
    expect(JSON.stringify(judged.refusals[0]?.details)).toContain('akismet.php');
  });

  it('decides that a plan with no action has nothing to apply, and reports it', async () => {
    const quiet = session();
    const decision = await quiet.approve({ path: 'now', plan: { config: 'none.yaml' }, autoApprove: true });
    await quiet.close();
    expect(decision.kind).toBe('nothing-to-apply');
    if (decision.kind !== 'nothing-to-apply') return;
    expect(decision.report.approval).toBe('auto-approve');
    expect(decision.report.result.outcomes).toEqual([]);
  });

  it('approves a plan a front end holds as a saved plan: data, its refusals coded, never a preview', async () => {
    const held = session({ SVC_SAFE_MODE: 'false' });
    try {
      const planned = await held.plan({ config: 'svc-gitops.yaml' });
      const approval = await held.approve({ path: 'held', planned });
      expect(approval.kind).toBe('approved');
      if (approval.kind !== 'approved') return;
      expect(approval.approved.approval).toBe('saved-plan');
      // An approval is data: what a front end keeps and hands back survives serialisation.
      expect(structuredClone(approval)).toEqual(approval);
      expect((await held.calls(approval)).flatMap((phase) => phase.calls).length).toBeGreaterThan(0);

      const nothing = await held.plan({ config: 'none.yaml' });
      const none = await held.approve({ path: 'held', planned: nothing });
      expect(none).toMatchObject({ kind: 'nothing-to-apply', report: { approval: 'saved-plan' } });

      const later = new Date(Date.now() + 3_600_000);
      const preview = await held.plan({ config: 'svc-gitops.yaml', at: later });
      expect(preview.at).toEqual(later);
      const refused = await held.approve({ path: 'held', planned: preview });
      expect(refused).toMatchObject({
        kind: 'refused',
        code: 'PREVIEW_REQUIRED',
        details: { reason: 'previewed-at', at: later.toISOString() },
      });
      // No front end's words: the reason says it, each front end words the way on.
      expect(refused).not.toHaveProperty('hint');
    } finally {
      await held.close();
    }
  });

  it("refuses a target in no front end's words: a reason and the target, no flag", () => {
    const sites = [
      { id: 2, url: 'https://shop.test/', name: 'a', status: 'connected' },
      { id: 5, url: 'https://shop.test/', name: 'b', status: 'connected' },
    ] as Parameters<typeof resolveTargets>[1];
    const refusal = (targets: string[]) => {
      try {
        resolveTargets(targets, sites);
      } catch (error) {
        return error as SvcError;
      }
      throw new Error('not refused');
    };
    const none = refusal(['plan.json']);
    expect(none.details).toEqual({ reason: 'target-matches-none', target: 'plan.json' });
    const many = refusal(['shop.test']);
    expect(many.details).toEqual({ reason: 'target-names-many', target: 'shop.test', siteIds: [2, 5] });
    for (const error of [none, many]) expect(`${error.message} ${error.hint}`).not.toMatch(/--|svc-gitops /);
  });
});
