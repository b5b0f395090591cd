/**
 * Documented limits on desired-state input. They bound memory and time on hostile input
 * (huge files, alias bombs, deep nesting) and are stated in the README and the schema.
 */
export const LIMITS = {
  /** A single desired-state file may be at most 4 MiB. */
  maxFileBytes: 4 * 1024 * 1024,
  /**
   * A directory's YAML files may hold at most 16 MiB together: reading costs time and memory in
   * proportion to the total (a 10,000-site fleet's desired state is under 0.5 MiB).
   */
  maxTotalBytes: 16 * 1024 * 1024,
  /**
   * Sites and globs one group, and all selections together, may expand to (groups replaced by
   * their items): far above what a fleet needs, far below what groups that list each other
   * twice per level reach.
   */
  maxExpandedItems: 2_000_000,
  /** A directory may hold at most this many YAML files. */
  maxFiles: 256,
  /** YAML aliases (`*name`) resolved per document; bounds "billion laughs" expansion. */
  maxAliasCount: 100,
  /** Collection nesting depth; the format needs 6, anything far deeper is hostile. */
  maxDepth: 64,
} as const;
