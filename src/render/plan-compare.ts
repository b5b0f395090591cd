/**
 * What a pull request changes: the base's plan and the head's, made from the same live read,
 * compared action by action. An action is the same in both when its operation, site and item
 * are; it changed when its versions, wave or risk differ. Reasons are not compared: adding a
 * line above a rule moves its file:line in every reason without changing what the plan does.
 */
import type { Action, Plan } from '../types.js';
import { compareRows, type ItemRow, itemRows } from './item-rows.js';

export type ChangeDirection = 'enters' | 'leaves' | 'changes';

/** One item's actions that enter, leave or change, as a row by item. */
export interface ChangeRow extends ItemRow {
  direction: ChangeDirection;
  /** `changes` rows: the base's target versions, in version order. */
  baseTo?: string[];
}

export interface PlanComparison {
  /** True when no action enters, leaves or changes. */
  same: boolean;
  /** True when the base's desired state is the head's (same files, same content). */
  sameDesired: boolean;
  entered: number;
  left: number;
  changed: number;
  /** Most sites first; within the same count entering, leaving, changing, then item order. */
  rows: ChangeRow[];
}

const DIRECTION_ORDER: Record<ChangeDirection, number> = { enters: 0, leaves: 1, changes: 2 };

const keyOf = (a: Action): string => `${a.op}\u0000${a.site_id}\u0000${a.kind}\u0000${a.slug}`;

/** Pure: the difference between two plans of the same live state. */
export function comparePlans(base: Plan, head: Plan): PlanComparison {
  const baseByKey = new Map<string, Action>();
  for (const action of base.actions) baseByKey.set(keyOf(action), action);
  const entered: Action[] = [];
  const changedHead: Action[] = [];
  const changedBase = new Map<Action, Action>();
  const seen = new Set<string>();
  for (const action of head.actions) {
    const key = keyOf(action);
    seen.add(key);
    const before = baseByKey.get(key);
    if (!before) entered.push(action);
    else if (
      before.from !== action.from ||
      before.to !== action.to ||
      before.wave !== action.wave ||
      before.risk !== action.risk
    ) {
      changedHead.push(action);
      changedBase.set(action, before);
    }
  }
  const left = base.actions.filter((action) => !seen.has(keyOf(action)));
  const rows: ChangeRow[] = [
    ...itemRows(entered).map((row) => ({ ...row, direction: 'enters' as const })),
    ...itemRows(left).map((row) => ({ ...row, direction: 'leaves' as const })),
    ...itemRows(changedHead).map((row) => ({
      ...row,
      direction: 'changes' as const,
      baseTo: itemRows(
        changedHead
          .filter((a) => a.op === row.op && a.kind === row.kind && a.slug === row.slug)
          .map((a) => changedBase.get(a)!),
      )[0]!.to,
    })),
  ];
  rows.sort(
    (a, b) =>
      b.siteIds.length - a.siteIds.length ||
      DIRECTION_ORDER[a.direction] - DIRECTION_ORDER[b.direction] ||
      compareRows(a, b),
  );
  return {
    same: rows.length === 0,
    sameDesired: base.desired_digest === head.desired_digest,
    entered: entered.length,
    left: left.length,
    changed: changedHead.length,
    rows,
  };
}
