import type { Diagnostic } from '../../errors.js';
import type { MergedState, RawSelection } from '../model.js';
import type { Locate } from '../places.js';

export interface RuleContext {
  merged: MergedState;
  locate: Locate;
}

/** A named semantic check that runs after the schema passed and the files were merged. */
export interface Rule {
  name: string;
  /** An error of this rule means the later rules must not run (they would expand a broken graph). */
  stopsOnError?: boolean;
  check(ctx: RuleContext): Diagnostic[];
}

/** Every site selection written in the desired state, with a label naming its owner. */
export function everySelection(merged: MergedState): Array<{ selection: RawSelection; owner: string }> {
  const out: Array<{ selection: RawSelection; owner: string }> = [];
  if (merged.sites) out.push({ selection: merged.sites, owner: '`sites`' });
  merged.ignoreRules.forEach((r, i) => {
    out.push({ selection: r.sites, owner: `ignore rule ${i + 1}` });
  });
  for (const p of merged.policies) out.push({ selection: p.sites, owner: `update policy \`${p.name}\`` });
  merged.holds.forEach((h, i) => {
    out.push({ selection: h.sites, owner: `hold ${i + 1} (${h.slug})` });
  });
  for (const w of merged.waves) out.push({ selection: w.sites, owner: `wave \`${w.name}\`` });
  return out;
}
