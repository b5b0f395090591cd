import type { DashboardClient } from '../dashboard/client.js';
import { SvcError } from '../errors.js';
import {
  brokenBySite,
  fingerprintIndexed,
  indexLiveState,
  verifyPlanId,
  withholding,
} from '../plan/index.js';
import type { Action, ItemRef, LiveState, Plan } from '../types.js';

/**
 * The approval checks a saved plan must pass before any of its actions run. Each throws an
 * SvcError with the interface's confirmation vocabulary; none sends a write. Order matters:
 * cheap local checks first, the live re-read (of the touched sites only) last.
 */

/** The approval-relevant parameters of one apply invocation. */
export interface ApprovalParameters {
  planFile: boolean;
  reviewed: boolean;
  resume: boolean;
  autoApprove: boolean;
  dryRun: boolean;
  targets: boolean;
}

/** Parameters that contradict each other are refused before anything is read or sent. */
export function checkApprovalParameters(p: ApprovalParameters): void {
  const conflict = (message: string) =>
    new SvcError('CONFLICTING_PARAMETERS', message, {
      hint: 'run `svc-gitops apply --help` for the approval paths',
    });
  if (p.autoApprove && p.dryRun) throw conflict('--auto-approve and --dry-run contradict each other');
  if (p.planFile && p.reviewed)
    throw conflict('give either a saved PLANFILE or --reviewed PLANFILE, not both');
  if (p.resume && (p.planFile || p.reviewed)) throw conflict('--resume plans again; it takes no plan file');
  if (p.targets && (p.planFile || p.reviewed || p.resume)) {
    throw conflict(
      '--target only narrows a plan made now; a saved, reviewed or resumed plan keeps its own scope',
    );
  }
}

/**
 * What to do when a saved plan is refused (edited, expired, stale, used): plan again, in the
 * words of the front end. The CLI's is the default; the tool server passes its own.
 */
export const CLI_REPLAN = 'run `svc-gitops plan --out FILE` again, review it, and apply the new file';

export function checkIntegrity(plan: Plan, replan: string = CLI_REPLAN): void {
  if (!verifyPlanId(plan)) {
    throw new SvcError(
      'PREVIEW_REQUIRED',
      'the plan file does not match its id: it was changed after planning',
      {
        hint: replan,
      },
    );
  }
}

/** Past its expiry time, or with one that is no time at all. */
export function isExpired(plan: Plan, now: Date): boolean {
  const expires = Date.parse(plan.expires_at);
  return !Number.isFinite(expires) || now.getTime() > expires;
}

/**
 * Names the variable of a setting in a hint. The CLI's are SVC_*; the tool server under
 * `--namespace NAME` passes its own (settingVariable), so no text needs rewriting afterwards.
 */
export type VariableOf = (setting: 'dashboardUrl' | 'safeMode' | 'planLifetimeMinutes') => string;

const SVC_VARIABLES: VariableOf = (setting) =>
  ({ dashboardUrl: 'SVC_URL', safeMode: 'SVC_SAFE_MODE', planLifetimeMinutes: 'SVC_PLAN_LIFETIME_MINUTES' })[
    setting
  ];

export function checkNotExpired(
  plan: Plan,
  now: Date,
  variable: VariableOf = SVC_VARIABLES,
  replan: string = CLI_REPLAN,
): void {
  if (isExpired(plan, now)) {
    throw new SvcError('PREVIEW_EXPIRED', `the plan expired at ${plan.expires_at}`, {
      hint: `${replan} (the lifetime is the setting planLifetimeMinutes, ${variable('planLifetimeMinutes')})`,
    });
  }
}

export function checkSameDashboard(
  plan: Plan,
  dashboardUrl: string,
  variable: VariableOf = SVC_VARIABLES,
): void {
  if (normaliseUrl(plan.dashboard.url) !== normaliseUrl(dashboardUrl)) {
    throw new SvcError(
      'PREVIEW_REQUIRED',
      `the plan was made for ${plan.dashboard.url}, not for the configured dashboard ${dashboardUrl}`,
      { hint: `point ${variable('dashboardUrl')} at the plan’s dashboard, or plan again against this one` },
    );
  }
}

export function checkSameDesiredState(plan: Plan, desiredDigest: string): void {
  if (plan.desired_digest !== desiredDigest) {
    throw new SvcError(
      'PREVIEW_REQUIRED',
      'the desired-state files differ from the ones the reviewed plan was made from',
      {
        hint: 'the merged config must be the reviewed one: re-run the plan on the pull request and review it again',
        details: { reviewed: plan.desired_digest, merged: desiredDigest },
      },
    );
  }
}

/** While safe mode is on (the default), high-risk actions (core, major versions) are refused. */
export function checkSafeMode(
  actions: readonly Action[],
  safeMode: boolean,
  variable: VariableOf = SVC_VARIABLES,
): void {
  if (!safeMode) return;
  const risky = actions.filter((action) => action.risk === 'high');
  if (risky.length === 0) return;
  const listed = risky
    .slice(0, 10)
    .map((a) => `${a.site_url} ${a.kind} ${a.slug} ${a.from ?? ''}→${a.to ?? ''}`.trim())
    .join('; ');
  const more = risky.length > 10 ? ` and ${risky.length - 10} more` : '';
  throw new SvcError(
    'SAFE_MODE_BLOCKED',
    `safe mode is on and the plan holds ${risky.length} high-risk action(s): ${listed}${more}`,
    {
      hint: `to allow core and major-version updates set \`safeMode: false\` in the settings file or ${variable('safeMode')}=false`,
      details: { high_risk: risky.length },
    },
  );
}

/**
 * Re-reads only the touched sites and compares each site's fingerprint with the plan's. Any
 * difference (or a site that can no longer be read) refuses the whole plan, nothing sent.
 * Returns the fresh live state of those sites.
 */
export async function checkLiveUnchanged(
  plan: Plan,
  client: Pick<DashboardClient, 'readLive'>,
  replan: string = CLI_REPLAN,
): Promise<LiveState> {
  const itemsBySite = new Map<number, ItemRef[]>();
  for (const action of plan.actions) {
    const items = itemsBySite.get(action.site_id) ?? [];
    items.push({ kind: action.kind, slug: action.slug });
    itemsBySite.set(action.site_id, items);
  }
  const siteIds = [...itemsBySite.keys()].sort((a, b) => a - b);
  const live = await client.readLive({ siteIds });
  const index = indexLiveState(live);
  // A broken ignore entry (LiveState.broken) makes its items' ignore state unknown: no write of them.
  const broken = brokenBySite(live);
  const changed: number[] = [];
  for (const siteId of siteIds) {
    const expected = plan.fingerprints[String(siteId)];
    if (
      index.unreadable.has(siteId) ||
      itemsBySite.get(siteId)!.some((item) => withholding(broken.get(siteId), item)) ||
      expected === undefined ||
      fingerprintIndexed(index, siteId, itemsBySite.get(siteId)!) !== expected
    ) {
      changed.push(siteId);
    }
  }
  if (changed.length > 0) {
    const urls = changed
      .slice(0, 10)
      .map((id) => plan.actions.find((a) => a.site_id === id)?.site_url ?? `site ${id}`);
    throw new SvcError(
      'PREVIEW_REQUIRED',
      `the live state changed since the plan was made on ${changed.length} site(s): ${urls.join(', ')}${changed.length > 10 ? ', …' : ''}; nothing was applied`,
      { hint: replan, details: { changed_sites: changed } },
    );
  }
  return live;
}

function normaliseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '').toLowerCase();
}
