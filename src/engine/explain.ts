import { assignWaves, REMAINING_WAVE } from '../plan/index.js';
import type { ItemKind, PlanGate, RolloutHalt } from '../types.js';
import type { SessionPlan } from './session-types.js';

export interface ExplainQuery {
  /** A site ID or a domain. */
  site: string;
  /** `core`, `plugin:<slug>`, `theme:<slug>`, `translation:<slug>`, or a bare slug of any kind. */
  item: string;
}

/**
 * "Why is this item on this site (not) updated or ignored?", answered from a session's plan: its
 * actions carry the rule, policy, hold or wave with file:line in their reasons, its notes the
 * facts it did not act on; the live pending updates and ignores say what there was to decide;
 * the site's wave, the rollout's waves in order, the gates that wave's updates passed (window,
 * soak, `after`/`healthy_for`) and a halted rollout say when. Data: each front end words it.
 */
export function explainPlan(planned: SessionPlan, query: ExplainQuery): Explanation {
  const { plan, live } = planned;
  const wanted = query.site.trim().toLowerCase();
  const site = live.sites.find(
    (candidate) =>
      String(candidate.id) === wanted ||
      new URL(candidate.url).hostname.toLowerCase() ===
        wanted.replace(/^https?:\/\//, '').replace(/\/.*$/, ''),
  );
  if (!site) return { found: false, explanation: `The dashboard lists no site ${query.site}.` };
  const waves = assignWaves(planned.desired.waves);
  const wave = waves.waveOf(site);
  const { kind, slug } = parseItem(query.item);
  const matches = (k: ItemKind, s: string) =>
    (kind === undefined || k === kind) && (slug === undefined || s === slug);
  const actions = plan.actions
    .filter((action) => action.site_id === site.id && matches(action.kind, action.slug))
    .map(({ op, kind: k, slug: s, from, to, risk, reason, wave }) => ({
      op,
      kind: k,
      slug: s,
      from,
      to,
      risk,
      reason,
      wave,
    }));
  const notes = plan.notes
    .filter(
      (note) =>
        (note.site_ids === undefined || note.site_ids.includes(site.id)) &&
        (note.item === undefined || matches(note.item.kind, note.item.slug)) &&
        (note.item !== undefined || note.site_ids !== undefined),
    )
    .map((note) => ({ kind: note.kind, message: note.message, ...(note.item ? { item: note.item } : {}) }));
  const pending = live.pending
    .filter((update) => update.siteId === site.id && matches(update.kind, update.slug))
    .map(({ kind: k, slug: s, from, to }) => ({ kind: k, slug: s, from, to }));
  const ignores = live.ignores
    .filter(
      (ignore) => ignore.siteId === site.id && (ignore.slug === '*' || matches(ignore.kind, ignore.slug)),
    )
    .map(({ kind: k, slug: s, versions, origin }) => ({ kind: k, slug: s, versions, origin }));
  const gates = plan.gates?.find((gate) => gate.wave === wave);
  return {
    found: true,
    plan_id: plan.id,
    site: { id: site.id, url: site.url, status: site.status },
    item: { ...(kind ? { kind } : {}), ...(slug ? { slug } : {}) },
    ...(wave === undefined ? {} : { wave, waves: waveOrder(planned) }),
    ...(gates ? { gates } : {}),
    ...(plan.rollout_halt ? { halt: plan.rollout_halt } : {}),
    actions,
    notes,
    pending,
    ignores,
    explanation: sentence(actions, notes, pending, ignores),
  };
}

/** The answer: `found: false` (with why) when the dashboard lists no such site. */
export type Explanation =
  | { found: false; explanation: string }
  | {
      found: true;
      plan_id: string;
      site: { id: number; url: string; status: string };
      item: { kind?: ItemKind; slug?: string };
      /** The site's wave, and every wave in rollout order (waves configured only). */
      wave?: string;
      waves?: string[];
      /** The gates the plan's updates of the site's wave passed; apply judges them again. */
      gates?: PlanGate;
      halt?: RolloutHalt;
      actions: Array<Record<string, unknown> & { op: string; reason: string }>;
      notes: Array<{ kind: string; message: string; item?: unknown }>;
      pending: unknown[];
      ignores: unknown[];
      explanation: string;
    };

/** The waves in rollout order; sites no wave selects form the implicit last one. */
function waveOrder(planned: SessionPlan): string[] {
  return [...planned.desired.waves.map((wave) => wave.name), REMAINING_WAVE];
}

function parseItem(item: string): { kind?: ItemKind; slug?: string } {
  const text = item.trim();
  if (text === 'core' || text === 'wordpress') return { kind: 'core' };
  const match = /^(plugin|theme|translation):(.+)$/.exec(text);
  if (match) return { kind: match[1] as ItemKind, slug: match[2] as string };
  return { slug: text };
}

function sentence(
  actions: Array<{ op: string; reason: string }>,
  notes: Array<{ message: string }>,
  pending: unknown[],
  ignores: unknown[],
): string {
  if (actions.length > 0) return actions.map((action) => `${action.op}: ${action.reason}`).join('\n');
  if (notes.length > 0) return `No action; the plan notes: ${notes.map((note) => note.message).join(' / ')}`;
  if (pending.length > 0) {
    return ignores.length > 0
      ? 'No action: an update is pending but the item is ignored and the desired state keeps it so.'
      : 'No action: an update is pending but no update policy of the desired state covers it on this site.';
  }
  return ignores.length > 0
    ? 'No action: the item is ignored as the desired state wants, and nothing is pending.'
    : 'No action: nothing is pending for this item on this site and no ignore rule names it.';
}
