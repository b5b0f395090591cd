import type { ItemRef } from '../types.js';
import { safeText } from './safe-text.js';

/**
 * `apply --dry-run`: the calls apply would send, phase by phase, and nothing else. The shapes
 * below are apply's batch data, restated structurally (render imports only types and errors).
 */
export type CallView =
  | { type: 'set-ignored'; siteId: number; kind: string; direction: string; slugs: string[] }
  | { type: 'run-updates'; siteIds: number[]; items: ItemRef[] };

export interface PhaseView {
  kind: 'ignore' | 'unignore' | 'update';
  wave: string | undefined;
  calls: CallView[];
}

export function renderApplyCalls(phases: readonly PhaseView[], dashboard: string): string {
  const total = phases.reduce((n, phase) => n + phase.calls.length, 0);
  const lines = [`Dry run: ${total} call(s) would be sent to ${safeText(dashboard)}; nothing was sent.`];
  for (const phase of phases) {
    const title =
      phase.kind === 'update'
        ? `updates${phase.wave === undefined ? '' : `, wave ${safeText(phase.wave)}`}`
        : `${phase.kind}s`;
    lines.push('', `${title}: ${phase.calls.length} call(s)`);
    for (const call of phase.calls) lines.push(`  ${describeCall(call)}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeCall(call: CallView): string {
  if (call.type === 'set-ignored') {
    return safeText(`${call.direction} ${call.kind} on site ${call.siteId}: ${call.slugs.join(', ')}`, 2000);
  }
  const sites =
    call.siteIds.length > 8
      ? `${call.siteIds.slice(0, 8).join(', ')}, … (${call.siteIds.length} sites)`
      : call.siteIds.join(', ');
  const items = call.items.map((item) => `${item.kind} ${item.slug}`).join(', ');
  return safeText(`run updates of ${items} on sites ${sites}`, 2000);
}
