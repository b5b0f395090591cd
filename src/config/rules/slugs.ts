import type { Diagnostic } from '../../errors.js';
import type { ItemKind } from '../../types.js';
import type { Valued } from '../model.js';
import { diagnostic } from '../places.js';
import type { Rule } from './context.js';

/**
 * Slug globs must be able to match a slug of the kinds they apply to: plugin slugs always contain
 * `/` (`<folder>/<file>.php`), theme and translation slugs never do. The schema checks each
 * string's characters; this rule checks it against the kinds around it.
 */
export const malformedSlug: Rule = {
  name: 'malformed-slug',
  check({ merged, locate }) {
    const out: Diagnostic[] = [];
    const report = (slug: Valued<string>, kinds: ItemKind[], hint: string) =>
      out.push(
        diagnostic(locate, {
          rule: 'malformed-slug',
          message: `\`${slug.value}\` cannot match any ${kinds.join(' or ')} slug`,
          place: slug.place,
          hint,
        }),
      );
    for (const policy of merged.policies) {
      const kinds = policy.kinds.filter((k) => k !== 'core');
      if (kinds.length === 0) continue; // core's slug is fixed; patterns do not apply to it
      for (const glob of [...policy.include, ...policy.exclude]) {
        if (!kinds.some((kind) => canMatchKind(glob.value, kind)))
          report(glob, kinds, fixFor(glob.value, kinds));
      }
    }
    for (const hold of merged.holds) {
      if (hold.kind === 'core') continue;
      if (!canMatchKind(hold.slug, hold.kind)) {
        const place = { file: hold.place.file, path: [...hold.place.path, hold.kind] };
        report({ value: hold.slug, place }, [hold.kind], fixFor(hold.slug, [hold.kind]));
      }
    }
    return out;
  },
};

/** Could this glob match some slug of this kind? `*` matches `/` too. */
export function canMatchKind(glob: string, kind: ItemKind): boolean {
  if (kind === 'core') return glob === 'wordpress' || /[*?]/.test(glob);
  const wild = /[*]/.test(glob);
  if (kind === 'plugin') {
    if (wild) return true;
    // <folder>/<file>.php, or <file>.php for a single-file plugin (hello.php).
    return /^([^/]+\/)?[^/]+\.php$/.test(glob.replace(/\?/g, 'x'));
  }
  return !glob.includes('/');
}

function fixFor(glob: string, kinds: ItemKind[]): string {
  if (kinds.includes('plugin') && !glob.includes('/')) {
    return `plugin slugs are <folder>/<file>.php: write \`${glob}/${glob}.php\` or \`${glob}/*\``;
  }
  if (glob.includes('/'))
    return `theme and translation slugs are a folder name: write \`${glob.split('/')[0]}\``;
  return 'plugin slugs end in .php: write `<folder>/<file>.php` or use a glob such as `<folder>/*`';
}
