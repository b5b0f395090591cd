import type { Diagnostic } from '../../errors.js';
import { diagnostic } from '../places.js';
import type { Rule } from './context.js';

/**
 * Version rules that can never take effect: a pin or held versions on translations (the dashboard
 * reports no new version for them, so nothing could be compared), a hold both pinned and of
 * some versions (which would win is not obvious), and a policy with `max: none`
 * (it allows no update at all; a hold says that more clearly).
 */
export const impossibleVersionRule: Rule = {
  name: 'impossible-version-rule',
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    for (const hold of merged.holds) {
      if (hold.versions !== undefined && (hold.pin !== undefined || hold.kind === 'translation')) {
        const why =
          hold.kind === 'translation'
            ? 'translations have no versions to hold'
            : 'a hold of some versions cannot also be pinned';
        out.push(
          diagnostic(locate, {
            rule: 'impossible-version-rule',
            message: `\`${hold.slug}\` holds versions ${hold.versions.join(', ')}, but ${why}`,
            place: { file: hold.place.file, path: [...hold.place.path, 'versions'] },
            hint: 'keep either `pin` or `versions`, or remove `versions` to hold the item entirely',
          }),
        );
      }
      if (hold.kind !== 'translation' || hold.pin === undefined) continue;
      out.push(
        diagnostic(locate, {
          rule: 'impossible-version-rule',
          message: `translation \`${hold.slug}\` is pinned to ${hold.pin}, but translations have no versions to compare`,
          place: { file: hold.place.file, path: [...hold.place.path, 'pin'] },
          hint: 'remove `pin` to hold the translation entirely, or remove the hold',
        }),
      );
    }
    for (const policy of merged.policies) {
      if (policy.maxLevel !== 'none') continue;
      out.push(
        diagnostic(locate, {
          rule: 'impossible-version-rule',
          severity: 'warning',
          message: `policy \`${policy.name}\` has max: none, so it allows no update`,
          place: { file: policy.place.file, path: [...policy.place.path, 'max'] },
          hint: 'raise max to patch, minor or major, or replace the policy with a hold',
        }),
      );
    }
    return out;
  },
};
