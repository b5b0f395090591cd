import { describe, expect, it } from 'vitest';
import {
  type ApprovalDecision,
  type Approved,
  applyLockPlace,
  approvePrompt,
  approveResume,
  approveReviewed,
  approveSaved,
  failureLimit,
  heldBackOf,
  openJournal,
  type Planned,
  plannedCalls,
  type Refused,
  runApproved,
  statePaths,
} from '../../src/apply/index.js';
import { isSvcError } from '../../src/errors.js';
import type { Plan } from '../../src/types.js';
import { closedAfterEach } from '../helpers/lifecycle.js';
import { update } from './builders.js';
import { reId } from './cli-helpers.js';
import { CONFIG, changeTouchedSite, startWorld, type World } from './world.js';

/**
 * The four approval paths as a library, without the CLI: each returns a decision (approved,
 * refused with a code, nothing to apply, cancelled) and sends nothing; `runApproved` then runs
 * an approval under the lock and returns the complete result. Against the sandbox.
 */
const openWorld = closedAfterEach(startWorld);

const NOW = new Date();
const WAVES_CONFIG = `${CONFIG}rollout:\n  waves:\n    - name: canary\n      sites: [1]\n      max_failures: 2\n`;

async function plannedNow(world: World): Promise<Planned> {
  return world.plan(NOW);
}

function refused(decision: ApprovalDecision): Refused {
  if (decision.kind !== 'refused') throw new Error(`expected a refusal, got ${decision.kind}`);
  return decision;
}

function approved(decision: ApprovalDecision): Approved {
  if (decision.kind !== 'approved') throw new Error(`expected an approval, got ${JSON.stringify(decision)}`);
  return decision;
}

const withHighRisk = (plan: Plan): Plan =>
  reId({
    ...plan,
    actions: [...plan.actions, update(1, 'core', 'wordpress', { site_url: 'https://alpha.fleet.test/' })],
  });

describe('approvePrompt', () => {
  const settings = { safeMode: true, requireUserConfirmation: true };

  it('approves by the person’s yes, --auto-approve or no confirmation, and says which', async () => {
    const planned = await plannedNow(await openWorld());
    const asked: Plan[] = [];
    const yes = async (plan: Plan) => {
      asked.push(plan);
      return true;
    };
    expect(approved(await approvePrompt(planned, { ...settings, confirm: yes })).approval).toBe('prompt');
    expect(asked).toEqual([planned.plan]);
    expect(approved(await approvePrompt(planned, { ...settings, autoApprove: true })).approval).toBe(
      'auto-approve',
    );
    const unasked = await approvePrompt(planned, { safeMode: true, requireUserConfirmation: false });
    expect(approved(unasked).approval).toBe('no-confirmation');
    expect(approved(unasked).capabilities).toEqual(planned.live.capabilities);
    expect(await approvePrompt(planned, { ...settings, confirm: async () => false })).toEqual({
      kind: 'cancelled',
    });
  });

  it('a plan without actions asks nobody; a dry run is approved without asking', async () => {
    const planned = await plannedNow(await openWorld());
    const never = async (): Promise<boolean> => {
      throw new Error('asked');
    };
    const empty = { ...planned, plan: reId({ ...planned.plan, actions: [] }) };
    expect(await approvePrompt(empty, { ...settings, confirm: never })).toEqual({ kind: 'nothing-to-apply' });
    expect(
      approved(await approvePrompt(planned, { ...settings, dryRun: true, confirm: never })).approval,
    ).toBe('prompt');
  });

  it('refuses with codes: no terminal, a plan that needs a person, safe mode', async () => {
    const planned = await plannedNow(await openWorld());
    expect(refused(await approvePrompt(planned, settings)).message).toContain('no terminal');
    const needsPerson = { ...planned, plan: reId({ ...planned.plan, needs_approval: true }) };
    const auto = refused(await approvePrompt(needsPerson, { ...settings, autoApprove: true }));
    expect(auto.code).toBe('PREVIEW_REQUIRED');
    expect(auto.details).toEqual({ reason: 'needs-person' });
    // No front end's words: each front end words the refusal by its reason.
    expect(`${auto.message} ${auto.hint ?? ''}`).not.toMatch(/--|svc-gitops /);
    const risky = { ...planned, plan: withHighRisk(planned.plan) };
    expect(refused(await approvePrompt(risky, { ...settings, autoApprove: true })).code).toBe(
      'SAFE_MODE_BLOCKED',
    );
    expect(
      approved(await approvePrompt(risky, { ...settings, safeMode: false, autoApprove: true })).plan,
    ).toBe(risky.plan);
  });
});

describe('approveSaved', () => {
  it('refuses an edited, expired, foreign or high-risk plan with its code', async () => {
    const world = await openWorld();
    const { plan } = await plannedNow(world);
    const url = world.sandbox.url;
    const options = { dashboardUrl: url, safeMode: true, now: NOW };
    const edited = { ...plan, actions: plan.actions.map((a, i) => (i === 0 ? { ...a, reason: 'x' } : a)) };
    expect(refused(approveSaved(edited, options)).message).toContain('changed after planning');
    const later = new Date(Date.parse(plan.expires_at) + 1);
    expect(refused(approveSaved(plan, { ...options, now: later })).code).toBe('PREVIEW_EXPIRED');
    expect(
      refused(approveSaved(plan, { ...options, dashboardUrl: 'https://other.test/' })).message,
    ).toContain('not for the configured dashboard https://other.test/');
    expect(refused(approveSaved(withHighRisk(plan), options)).code).toBe('SAFE_MODE_BLOCKED');
  });

  it('takes the wave limits from the plan itself, with or without a config at hand (issue 21, finding 3)', async () => {
    const world = await openWorld();
    world.writeConfig(WAVES_CONFIG);
    const { plan, desired } = await plannedNow(world);
    const options = { dashboardUrl: world.sandbox.url, safeMode: true, now: NOW };
    expect(plan.wave_limits).toEqual({ canary: 2 });
    for (const config of [undefined, { path: 'svc-gitops.yaml', desired, named: true }]) {
      const decision = approved(approveSaved(plan, { ...options, config }));
      expect(failureLimit(decision.maxFailures, 'canary')).toBe(2);
      expect(decision.warnings).toEqual([]);
    }
    // A config only found (not named with -c) is no reason to refuse, whatever it holds.
    const found = approved(
      approveSaved(plan, {
        ...options,
        config: { path: 'other.yaml', desired: { ...desired, digest: 'c' } },
      }),
    );
    expect(failureLimit(found.maxFailures, 'canary')).toBe(2);
    // A plan without thresholds (none in a named wave when it was made) stops a wave at one failure.
    const { wave_limits: _limits, ...bare } = plan;
    const old = approved(approveSaved(reId(bare as Plan), options));
    expect(failureLimit(old.maxFailures, 'canary')).toBe(0);
    expect(old.warnings).toEqual([
      'no desired-state config was found: every wave stops at its first failed update',
    ]);
  });

  it('refuses a plan applied with another desired state named by -c (issue 21, finding 3)', async () => {
    const world = await openWorld();
    const { plan, desired } = await plannedNow(world);
    const options = { dashboardUrl: world.sandbox.url, safeMode: true, now: NOW };
    const other = approveSaved(plan, {
      ...options,
      config: { path: 'b.yaml', desired: { ...desired, digest: 'other' }, named: true },
    });
    expect(other).toMatchObject({ kind: 'refused', code: 'CONFLICTING_PARAMETERS' });
    expect((other as Refused).message).toContain('another desired state than b.yaml');
    const broken = approveSaved(plan, {
      ...options,
      config: { path: 'b.yaml', desired: undefined, named: true },
    });
    expect(broken).toMatchObject({ kind: 'refused', code: 'CONFLICTING_PARAMETERS' });
  });
});

describe('approveReviewed', () => {
  it('runs only what was reviewed and is still needed; lists the rest', async () => {
    const world = await openWorld();
    const planned = await plannedNow(world);
    const [first, ...rest] = planned.plan.actions;
    const gone = update(9, 'plugin', 'gone/gone.php');
    const reviewed = reId({ ...planned.plan, actions: [...rest, gone] });
    const decision = approved(
      approveReviewed(reviewed, planned, { dashboardUrl: world.sandbox.url, safeMode: true }),
    );
    expect(decision.approval).toBe('reviewed');
    expect(decision.reviewed).toEqual({ notNeeded: [gone], unreviewed: [first] });
    expect(heldBackOf(decision.heldBack)(first!)).toMatchObject({ status: 'blocked', code: 'UNREVIEWED' });
    expect(heldBackOf(decision.heldBack)(rest[0]!)).toBeUndefined();
    // An approval is data: it survives a serialisation round trip whole.
    expect(JSON.parse(JSON.stringify(decision))).toEqual(decision);
    expect(structuredClone(decision)).toEqual(decision);
    expect(plannedCalls(decision, planned.live.capabilities).flatMap((p) => p.calls).length).toBeGreaterThan(
      0,
    );
  });

  it('refuses a plan from other desired-state files, or edited after review', async () => {
    const world = await openWorld();
    const planned = await plannedNow(world);
    const options = { dashboardUrl: world.sandbox.url, safeMode: true };
    const otherConfig = reId({ ...planned.plan, desired_digest: 'd'.repeat(64) });
    expect(refused(approveReviewed(otherConfig, planned, options)).message).toContain(
      'differ from the ones the reviewed plan was made from',
    );
    const edited = { ...planned.plan, needs_approval: !planned.plan.needs_approval };
    expect(refused(approveReviewed(edited, planned, options)).code).toBe('PREVIEW_REQUIRED');
  });
});

describe('approveResume', () => {
  it('refuses without an interrupted run; resumes only the interrupted run’s actions', async () => {
    const world = await openWorld();
    const planned = await plannedNow(world);
    const paths = statePaths('/work/.svc-gitops', world.sandbox.url);
    world.fs.mkdirSync(paths.usedPlans, { recursive: true });
    expect(refused(approveResume(planned, { fs: world.fs, paths })).message).toContain(
      'no interrupted apply to resume',
    );
    const journal = openJournal(world.fs, paths.journal);
    const [first, ...rest] = planned.plan.actions;
    await journal.append({
      type: 'run-start',
      run_id: 'r1',
      at: NOW.toISOString(),
      plan_id: planned.plan.id,
      dashboard: planned.plan.dashboard.url,
      desired_digest: planned.desired.digest,
      actions: rest,
    });
    journal.close();
    const decision = approved(approveResume(planned, { fs: world.fs, paths }));
    expect(decision.approval).toBe('resume');
    expect(heldBackOf(decision.heldBack)(first!)).toMatchObject({ status: 'blocked', code: 'NOT_APPROVED' });
    expect(structuredClone(decision)).toEqual(decision);
    const changed = { ...planned, desired: { ...planned.desired, digest: 'e'.repeat(64) } };
    expect(refused(approveResume(changed, { fs: world.fs, paths })).message).toContain(
      'desired-state files changed',
    );
  });
});

describe('runApproved', () => {
  it('applies under the lock and returns the complete result: outcomes, verification, no stop', async () => {
    const world = await openWorld();
    const planned = await plannedNow(world);
    const decision = approved(
      await approvePrompt(planned, { safeMode: true, requireUserConfirmation: false }),
    );
    const paths = statePaths('/work/.svc-gitops', world.sandbox.url);
    const lock = await applyLockPlace({ HOME: '/home/tester' }, '/home/tester', world.sandbox.url);
    const result = await runApproved(decision, {
      client: world.client(),
      settings: world.settings(),
      fs: world.fs,
      paths,
      lock,
    });
    expect(result.outcomes.map((o) => o.status)).toEqual(planned.plan.actions.map(() => 'done'));
    expect(result.verification).toEqual({ status: 'confirmed' });
    expect(result.stopped).toBeUndefined();
    expect(world.fs.existsSync(paths.journal)).toBe(true);
    expect(world.fs.existsSync(lock.path)).toBe(false);
    expect(lock.path).toMatch(
      /^\/home\/tester\/\.local\/state\/svc-gitops\/locks\/apply-[0-9a-f]{16}\.lock$/,
    );
  });

  it('a saved plan runs once, and not at all once its touched sites changed (nothing sent)', async () => {
    const world = await openWorld();
    const { plan } = await plannedNow(world);
    const options = { dashboardUrl: world.sandbox.url, safeMode: true, now: NOW };
    const paths = statePaths('/work/.svc-gitops', world.sandbox.url);
    const run = (decision: Approved) =>
      runApproved(decision, { client: world.client(), settings: world.settings(), fs: world.fs, paths });
    const stale = approved(approveSaved(plan, options));
    await changeTouchedSite(world);
    const error = await run(stale).catch((e: unknown) => e);
    expect(isSvcError(error) && error.code).toBe('PREVIEW_REQUIRED');
    expect(String((error as Error).message)).toContain('live state changed');
    expect((await world.stats()).updates_run).toEqual([]);

    const fresh = approved(approveSaved((await plannedNow(world)).plan, options));
    expect((await run(fresh)).verification.status).toBe('confirmed');
    const again = await run(fresh).catch((e: unknown) => e);
    expect(isSvcError(again) && again.message).toContain('was already applied');
  });
});
