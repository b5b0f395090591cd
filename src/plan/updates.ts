/**
 * Update decisions for one selected, readable site. In this order: an item that stays ignored
 * after the plan is never updated (silently: the dashboard hides it anyway); an update no
 * policy allows is left alone; a blocking hold gives a `held` note; everything else becomes an
 * `update` action. (Offline sites are withheld as a whole by createPlan.)
 * Translations share slugs across languages: one action per (kind, slug), the lowest move first.
 */
import type { Action, PendingUpdate, PlanNote, Site } from '../types.js';
import { itemKey, type LiveSiteFacts } from './live-index.js';
import { compareText } from './order.js';
import type { CompiledRules } from './policies.js';
import { describeItem, sourceLabel } from './reasons.js';

export interface SiteUpdateOutcome {
  actions: Action[];
  notes: PlanNote[];
}

function move(update: PendingUpdate): string {
  return `${update.from} → ${update.to === '' ? '(new translation)' : update.to}`;
}

/**
 * One pending update per (kind, slug): the lowest move (from, then to, then name), so the
 * choice does not depend on the order the dashboard listed translations in.
 */
function lowestMoves(pending: readonly PendingUpdate[]): Iterable<PendingUpdate> {
  const lowest = new Map<string, PendingUpdate>();
  for (const update of pending) {
    const key = itemKey(update.kind, update.slug);
    const known = lowest.get(key);
    if (!known || compareMoves(update, known) < 0) lowest.set(key, update);
  }
  return lowest.values();
}

function compareMoves(a: PendingUpdate, b: PendingUpdate): number {
  return compareText(a.from, b.from) || compareText(a.to, b.to) || compareText(a.name, b.name);
}

export function planSiteUpdates(
  facts: LiveSiteFacts,
  rules: CompiledRules,
  ignoredAfter: (update: PendingUpdate) => boolean,
  waveOf: (site: Site) => string | undefined,
): SiteUpdateOutcome {
  const { site } = facts;
  const actions: Action[] = [];
  const notes: PlanNote[] = [];
  for (const update of lowestMoves(facts.pending)) {
    if (ignoredAfter(update)) continue;
    const verdict = rules.allowingPolicy(site, update);
    if (!verdict) continue;
    const held = rules.blockingHold(site, update);
    if (held) {
      const item = { kind: update.kind, slug: update.slug };
      const where = { site_id: site.id, site_url: site.url, item };
      const because = held.hold.reason ? `: ${held.hold.reason}` : '';
      const message = `${describeItem(item)} ${move(update)} ${held.why} (${sourceLabel(held.hold.source)})${because}`;
      notes.push({ kind: 'held', ...where, message });
      continue;
    }
    const wave = waveOf(site);
    actions.push({
      op: 'update',
      site_id: site.id,
      site_url: site.url,
      kind: update.kind,
      slug: update.slug,
      name: update.name !== '' ? update.name : update.slug,
      from: update.from,
      to: update.to,
      risk: update.kind === 'core' || verdict.level === 'major' ? 'high' : 'medium',
      // Keys in the saved plan's order (render/plan-json.ts), so it can write actions as built.
      ...(wave === undefined ? {} : { wave }),
      reason: verdict.reason,
    });
  }
  return { actions, notes };
}
