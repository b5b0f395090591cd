/**
 * The shipped dashboard's deviations from the interface spec (dashboard-facts §8), one switch
 * each. Profile `compat-6.1` turns every switch on, profile `spec` turns every switch off;
 * `SandboxOptions.quirks` overrides single switches on top of the profile.
 */
export const QUIRK_NAMES = [
  'restListFlatCapped',
  'restListTypeWpAll500',
  'restListExcludeByPosition',
  'restIgnoredListing500',
  'restRunSlugRequired',
  'restUpdateAllSync',
  'restIgnoreSlugIndexBug',
  'restKeyPermission401',
  'abilityShippedOutputs',
  'getSiteUpdatesIsGet',
  'ignoredListingNoPaging',
  'emptyTypesMeansNothing',
  'siteNotFound403',
  'updateAllNonDestructive',
  'statusUrlMissingRoute',
  'emptyMapAsArray',
  /** Extension: the shipped input schemas (translations `slugs`, update-all `types`, optional ignore `action`, ignored-listing filters). */
  'shippedInputSchemas',
  /** Extension: run-updates-v1 with no sites runs on every site of the user (spec: "all sites with updates"). */
  'runUpdatesEverySite',
  /** Extension: a global-batch `sites.create` without `name` derives it from the URL (spec: name required). */
  'batchSiteNameOptional',
  /** Extension: the slug-less REST ignore routes add `url` to the spec's `{success, message}`. */
  'restIgnoreReplyUrl',
  /**
   * Seen on MainWP 6.1.2: `POST /updates/{id}/update/{plugins|themes}` updates the child, but the
   * dashboard keeps listing the item as pending (at its old version) until the site is synced.
   */
  'restKindRunListedUntilSync',
  /** Seen on MainWP 6.1.2: the per-site REST ignored listing (`/updates/{id}/ignored`) leaves out the global ignores. */
  'restSiteIgnoredOmitsGlobal',
  /** Seen on MainWP 6.1.2: `GET /sites/{id}` of an unknown site is 500 `ability_invalid_permissions` (get-site-v1's check). */
  'restSiteAbilityPermission500',
  /**
   * Seen on MainWP 6.1.2: an ignore the REST per-slug route stored under a list index makes
   * `list-ignored-updates-v1` answer 500 `ability_invalid_output` for every listing that holds it.
   */
  'ignoredListingIndexSlug500',
  /** Seen on MainWP 6.1.2: the catalogue holds all 64 shipped abilities; those the sandbox does not emulate answer 501. */
  'fullShippedCatalogue',
] as const;

export type QuirkName = (typeof QUIRK_NAMES)[number];

/**
 * Switches no profile turns on by itself. `fullShippedCatalogue` adds 42 abilities that only
 * answer 501: clients that list the catalogue (a tool server's tools) would offer them all.
 */
const OPT_IN: ReadonlySet<QuirkName> = new Set<QuirkName>(['fullShippedCatalogue']);
export const PROFILES = ['compat-6.1', 'spec', 'next'] as const;
/** `next` is release 6.1 plus the next release's catalogue (dashboard-facts §9): every switch on. */
export type SandboxProfile = (typeof PROFILES)[number];
export type Quirks = Readonly<Record<QuirkName, boolean>>;

export function resolveQuirks(
  profile: SandboxProfile,
  overrides: Partial<Record<QuirkName, boolean>> = {},
): Quirks {
  const on = profile !== 'spec';
  const quirks = {} as Record<QuirkName, boolean>;
  for (const name of QUIRK_NAMES) quirks[name] = overrides[name] ?? (on && !OPT_IN.has(name));
  return quirks;
}

export function isQuirkName(name: string): name is QuirkName {
  return (QUIRK_NAMES as readonly string[]).includes(name);
}
