import type { SessionPlan as Planned } from '../../index.js';
import type { ApplyReport, NextStepWords } from '../../render/index.js';
import { countStatuses, renderApplyMarkdown, shortId } from '../../render/index.js';
import type { ActionOutcome } from '../../types.js';
import type { ComposedOutcome } from '../tool-result.js';

/**
 * The next steps in the tool server's words: it has no `--resume`; a plan made again holds only
 * what is still needed, so each step ends in the plan and apply tools.
 */
function toolNextSteps(product: string): NextStepWords {
  const again = `call ${product}_plan, then ${product}_apply with the new plan`;
  return {
    gateClosed: `Apply again once it opens: ${again}; it plans what is left, and nothing is sent while the gate is shut.`,
    interrupted: `To finish the remaining actions, ${again}: it holds only what is still needed.`,
    unreachable: (notStarted) =>
      `Once the dashboard answers again, ${again} to finish the remaining actions (${notStarted} not started).`,
    unhealthy: `Fix the unhealthy sites, then ${again}: the rollout continues once a new health check passes.`,
  };
}

/** Who said yes to an apply: the user through the client's question, or the agent with a token. */
export type ConfirmedBy = 'user' | 'token';

/**
 * An apply's result, echoing what was applied: the plan id, its roll-up, the counts and the
 * sites with their outcomes, and who confirmed it. An error whenever an action failed or went
 * unverified, the dashboard was unreachable, a gate closed before a wave, or the rollout is
 * halted (held before the run, or stopped by a wave's health check), the last with `stopped` and
 * the hold or stopping wave as `health`.
 */
export function appliedOutcome(
  planned: Planned,
  report: ApplyReport,
  confirmedBy: ConfirmedBy,
  product: string,
): ComposedOutcome {
  const { outcomes } = report.result;
  const counts = countStatuses(outcomes);
  const unverified = outcomes.filter((outcome) => outcome.unverified).length;
  const markdown = renderApplyMarkdown(report, toolNextSteps(product));
  const stoppedWave = report.result.health?.find((wave) => wave.stopped);
  const failed =
    counts.failed > 0 ||
    unverified > 0 ||
    report.unreachable !== undefined ||
    report.gateClosed !== undefined ||
    stoppedWave !== undefined ||
    report.halt !== undefined;
  const sites = bySite(outcomes);
  const how =
    confirmedBy === 'user' ? 'confirmed by the user through the client' : 'confirmed with its token';
  const echo = `Plan ${shortId(planned.plan.id)} ${failed ? 'was not fully applied' : 'applied'} (${how}): ${counts.done} done, ${counts.failed} failed, ${counts.skipped} skipped, ${counts.blocked} blocked on ${sites.length} site(s)${sites.length ? `: ${sites.map((site) => site.site_url).join(', ')}` : ''}.`;
  return {
    structured: {
      plan_id: planned.plan.id,
      applied: !failed,
      confirmed_by: confirmedBy,
      summary: planned.plan.summary,
      ...(report.halt || stoppedWave
        ? {
            stopped: true,
            health: report.halt ?? stoppedWave,
            ...(report.result.health ? { waves: report.result.health } : {}),
          }
        : {}),
      counts,
      unverified,
      calls: report.result.calls,
      sites,
      ...(report.unreachable ? { unreachable: report.unreachable.message } : {}),
      ...(report.gateClosed ? { gate_closed: report.gateClosed.message } : {}),
      ...(report.verificationError ? { verification_error: report.verificationError } : {}),
      markdown,
    },
    text: `${echo}\n\n${markdown}`,
    ...(failed ? { isError: true } : {}),
  };
}

/** Each site the run touched, in id order, with its actions' counts by status. */
function bySite(outcomes: readonly ActionOutcome[]) {
  const sites = new Map<
    number,
    { site_id: number; site_url: string; done: number; failed: number; skipped: number; blocked: number }
  >();
  for (const { action, status } of outcomes) {
    const site = sites.get(action.site_id) ?? {
      site_id: action.site_id,
      site_url: action.site_url,
      done: 0,
      failed: 0,
      skipped: 0,
      blocked: 0,
    };
    site[status] += 1;
    sites.set(action.site_id, site);
  }
  return [...sites.values()].sort((a, b) => a.site_id - b.site_id);
}
