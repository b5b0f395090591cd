import type { Diagnostic } from '../../errors.js';
import type { Place } from '../model.js';
import { diagnostic, placeText } from '../places.js';
import type { Rule } from './context.js';

/** Policy names and wave names identify them in plans and reports, so each must be unique. */
export const duplicateName: Rule = {
  name: 'duplicate-name',
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    const check = (what: string, entries: Array<{ name: string; place: Place }>) => {
      const first = new Map<string, Place>();
      for (const entry of entries) {
        const earlier = first.get(entry.name);
        if (!earlier) {
          first.set(entry.name, entry.place);
          continue;
        }
        out.push(
          diagnostic(locate, {
            rule: 'duplicate-name',
            message: `${what} \`${entry.name}\` is defined twice (first at ${placeText(locate, earlier)})`,
            place: { file: entry.place.file, path: [...entry.place.path, 'name'] },
            hint: `give each ${what} its own name`,
            related: [{ place: earlier, message: `first ${what} \`${entry.name}\`` }],
          }),
        );
      }
    };
    check('update policy', merged.policies);
    check('wave', merged.waves);
    return out;
  },
};
