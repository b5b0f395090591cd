import type { SessionPlan as Planned } from '../../index.js';
import { safeText, shortId } from '../../render/index.js';
import type { Action } from '../../types.js';
import type { AskUser, UserAnswer, UserQuestion } from '../tool-result.js';

/** Sites the question lists one by one, and actions per site; the rest are counted. */
const SITES_SHOWN = 25;
const ACTIONS_PER_SITE = 6;

/** The one field of the question: a box the user ticks, so an empty accept applies nothing. */
const FIELD = 'apply';

/** The user's verdict on a plan: accepted, or declined / cancelled / unanswered with why. */
export type Verdict = { accepted: true } | { accepted: false; action: 'decline' | 'cancel'; reason: string };

/**
 * Asks the user, through the client, whether to apply the plan: the question is the server's own
 * account of the plan (dashboard, counts, sites and actions), never words the agent chose, so the
 * plan applied is the plan the user saw. Only an accept with the box ticked is a yes.
 */
export async function askToApply(askUser: AskUser, planned: Planned, signal: AbortSignal): Promise<Verdict> {
  const answer = await askUser(applyQuestion(planned), signal);
  if (answer.action === 'accept' && answer.content?.[FIELD] === true) return { accepted: true };
  return { accepted: false, action: answer.action === 'decline' ? 'decline' : 'cancel', reason: why(answer) };
}

function why(answer: UserAnswer): string {
  if (answer.failure) return `the client gave no answer (${answer.failure})`;
  if (answer.action === 'accept') return `the user answered without ticking "${FIELD}"`;
  return answer.action === 'decline' ? 'the user declined' : 'the user cancelled the question';
}

/** The question: what the plan does, on which dashboard and sites, until when it is valid. */
export function applyQuestion(planned: Planned): UserQuestion {
  const { plan } = planned;
  const s = plan.summary;
  const lines = [
    'Confirm an apply. This summary is written by the svc-gitops tool server from the plan itself, not by the assistant.',
    '',
    `Plan ${shortId(plan.id)} for ${safeText(plan.dashboard.url)}: ${s.update} update(s), ${s.ignore} ignore(s), ${s.unignore} unignore(s) on ${s.sites} site(s)${s.high_risk ? `; ${s.high_risk} high-risk (core or major)` : ''}. Valid until ${plan.expires_at}.`,
    '',
    ...siteLines(plan.actions),
    '',
    `Tick "${FIELD}" and accept to apply exactly this plan; decline or cancel and nothing is changed.`,
  ];
  return {
    message: lines.join('\n'),
    requestedSchema: {
      type: 'object',
      properties: {
        [FIELD]: {
          type: 'boolean',
          title: `Apply plan ${shortId(plan.id)}`,
          description: `apply the ${plan.actions.length} action(s) above`,
          default: false,
        },
      },
      required: [FIELD],
    },
  };
}

/** One line per site (the first SITES_SHOWN), its actions in the plan's order. */
function siteLines(actions: readonly Action[]): string[] {
  const sites = new Map<number, Action[]>();
  for (const action of actions) sites.set(action.site_id, [...(sites.get(action.site_id) ?? []), action]);
  const lines = [...sites.values()].slice(0, SITES_SHOWN).map((list) => {
    const shown = list.slice(0, ACTIONS_PER_SITE).map(actionWords);
    const more = list.length > ACTIONS_PER_SITE ? `; and ${list.length - ACTIONS_PER_SITE} more` : '';
    return `- ${safeText(list[0]!.site_url)} (site ${list[0]!.site_id}): ${shown.join('; ')}${more}`;
  });
  if (sites.size > SITES_SHOWN) {
    const rest = [...sites.values()].slice(SITES_SHOWN);
    lines.push(
      `- and ${rest.reduce((n, list) => n + list.length, 0)} more action(s) on ${rest.length} more site(s)`,
    );
  }
  return lines;
}

function actionWords(action: Action): string {
  const item = action.kind === 'core' ? 'core' : `${action.kind} ${safeText(action.slug)}`;
  const move =
    action.op === 'update' ? ` ${safeText(action.from ?? '?')} → ${safeText(action.to ?? '?')}` : '';
  const risk = action.risk === 'high' ? ' (high risk)' : '';
  return `${action.op} ${item}${move}${risk}${action.wave ? ` [wave ${safeText(action.wave)}]` : ''}`;
}
