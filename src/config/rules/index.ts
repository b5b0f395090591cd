import type { Diagnostic } from '../../errors.js';
import type { Pacer } from '../pace.js';
import { ignoredAndUpdated } from './conflicts.js';
import type { Rule, RuleContext } from './context.js';
import { groupCycle, groupTooLarge, unknownGroup, unusedGroup } from './groups.js';
import { duplicateName } from './names.js';
import { badCron, unknownWave, unknownZone } from './rollout.js';
import { duplicateWaveSite, emptySelection, wwwGlob } from './selections.js';
import { malformedSlug } from './slugs.js';
import { impossibleVersionRule } from './versions.js';

/** The semantic rules, run in this order after the schema and the merge; each is tested on its own. */
export const RULES: readonly Rule[] = [
  unknownGroup,
  groupCycle,
  groupTooLarge,
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

/**
 * Gives `pacer` a step between rules, so a signal is handled while a large state is checked. A
 * group cycle or an oversized group ends the run: the rules after them expand groups.
 */
export async function runRules(ctx: RuleContext, pacer: Pacer): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const rule of RULES) {
    await pacer.step();
    // A loop, not push(...): a rule may report more diagnostics than a call can take as arguments.
    const found = rule.check(ctx);
    for (const d of found) out.push(d);
    if (rule.stopsOnError && found.some((d) => d.severity === 'error')) break;
  }
  return out;
}
