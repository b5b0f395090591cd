import type { Diagnostic } from '../../errors.js';
import { ignoredAndUpdated } from './conflicts.js';
import type { Rule, RuleContext } from './context.js';
import { groupCycle, unknownGroup, unusedGroup } from './groups.js';
import { duplicateName } from './names.js';
import { badCron, unknownWave, unknownZone } from './rollout.js';
import { duplicateWaveSite, emptySelection, wwwGlob } from './selections.js';
import { malformedSlug } from './slugs.js';
import { impossibleVersionRule } from './versions.js';

/** The semantic rules, run in this order after the schema and the merge; each is tested on its own. */
export const RULES: readonly Rule[] = [
  unknownGroup,
  groupCycle,
  unusedGroup,
  emptySelection,
  wwwGlob,
  malformedSlug,
  ignoredAndUpdated,
  duplicateWaveSite,
  impossibleVersionRule,
  duplicateName,
  badCron,
  unknownZone,
  unknownWave,
];

export function runRules(ctx: RuleContext): Diagnostic[] {
  return RULES.flatMap((rule) => rule.check(ctx));
}
