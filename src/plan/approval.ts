/**
 * Approval rules of the desired state: a plan needs a person's approval when it updates more
 * sites than `approval.max_sites`, updates core (`approval.core`) or makes a major version jump
 * (`approval.major`). Each reason that applies becomes one plan-wide note, naming the rule by
 * its key in the YAML (the words a reviewer can look up), never an internal name.
 */
import type { Action, ApprovalRules, PlanNote } from '../types.js';
import { memoPairs } from './memo.js';
import { updateLevel, versionLevel } from './versions.js';

export interface ApprovalVerdict {
  needsApproval: boolean;
  notes: PlanNote[];
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * `key` names the rules in the notes: `approval` for routine updates, `security.approval` for
 * security updates, which are judged by their own limits.
 */
export function judgeApproval(
  actions: readonly Action[],
  rules: ApprovalRules,
  key = 'approval',
): ApprovalVerdict {
  const levelOf = memoPairs(versionLevel);
  const sitesUpdated = new Set<number>();
  let core = 0;
  let major = 0;
  // A plan lists each site's updates together: a site is added once per run.
  let last = Number.NaN;
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i] as Action;
    if (action.op !== 'update') continue;
    if (action.site_id !== last) {
      sitesUpdated.add(action.site_id);
      last = action.site_id;
    }
    if (action.kind === 'core') {
      core++;
      if (updateLevel(action.kind, action.from ?? '', action.to ?? '', levelOf) === 'major') major++;
    } else if (action.risk === 'high') {
      major++; // an update other than core is high risk exactly when it is a major jump
    }
  }
  const notes: PlanNote[] = [];
  const sites = sitesUpdated.size;
  const max = rules.maxSitesWithoutApproval;
  if (max !== undefined && sites > max) {
    const message = `updates ${plural(sites, 'site')}, more than ${key}.max_sites (${max})`;
    notes.push({ kind: 'needs-approval', message });
  }
  if (rules.coreNeedsApproval && core > 0) {
    notes.push({ kind: 'needs-approval', message: `${plural(core, 'core update')} (${key}.core)` });
  }
  if (rules.majorNeedsApproval && major > 0) {
    notes.push({ kind: 'needs-approval', message: `${plural(major, 'major update')} (${key}.major)` });
  }
  return { needsApproval: notes.length > 0, notes };
}
