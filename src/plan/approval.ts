/**
 * Approval rules of the desired state: a plan needs a person's approval when it updates more
 * sites than `maxSitesWithoutApproval`, updates core (`coreNeedsApproval`) or makes a major
 * version jump (`majorNeedsApproval`). Each reason that applies becomes one plan-wide note.
 */
import type { Action, ApprovalRules, PlanNote } from '../types.js';
import { versionLevel } from './versions.js';

export interface ApprovalVerdict {
  needsApproval: boolean;
  notes: PlanNote[];
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

export function judgeApproval(actions: readonly Action[], rules: ApprovalRules): ApprovalVerdict {
  const updates = actions.filter((action) => action.op === 'update');
  const notes: PlanNote[] = [];
  const sites = new Set(updates.map((action) => action.site_id)).size;
  const max = rules.maxSitesWithoutApproval;
  if (max !== undefined && sites > max) {
    const message = `updates ${plural(sites, 'site')}, more than maxSitesWithoutApproval (${max})`;
    notes.push({ kind: 'needs-approval', message });
  }
  const core = updates.filter((action) => action.kind === 'core').length;
  if (rules.coreNeedsApproval && core > 0) {
    notes.push({ kind: 'needs-approval', message: `${plural(core, 'core update')} (coreNeedsApproval)` });
  }
  const major = updates.filter(
    (action) => versionLevel(action.from ?? '', action.to ?? '') === 'major',
  ).length;
  if (rules.majorNeedsApproval && major > 0) {
    notes.push({ kind: 'needs-approval', message: `${plural(major, 'major update')} (majorNeedsApproval)` });
  }
  return { needsApproval: notes.length > 0, notes };
}
