import type {
  HealthPath,
  HealthRules,
  IgnorableKind,
  IgnoreScope,
  ItemKind,
  SiteMatcher,
  VersionLevel,
} from '../types.js';

/**
 * Internal shapes between parsing and the final DesiredState. Everything keeps its `Place`
 * (file + JSON path) so diagnostics and SourceRefs can point back at the YAML; positions are
 * computed only when needed, because most places are never reported.
 */
export type Segment = string | number;

/** A place in a source file, 1-based. */
export interface Position {
  line: number;
  col: number;
}

export interface Place {
  file: string;
  path: Segment[];
}

/** A site item before group expansion. */
export type RawItem = SiteMatcher | { type: 'group'; name: string };

export interface RawItemAt {
  item: RawItem;
  place: Place;
}

export interface RawSelection {
  include: RawItemAt[];
  exclude: RawItemAt[];
  place: Place;
}

export interface Valued<T> {
  value: T;
  place: Place;
}

export interface RawGroup {
  name: string;
  items: RawItemAt[];
  place: Place;
}

export interface RawIgnoreRule {
  sites: RawSelection;
  core: boolean;
  plugins: Valued<string>[];
  themes: Valued<string>[];
  siteFlags?: Partial<Record<IgnorableKind, boolean>>;
  place: Place;
}

export interface RawPolicy {
  name: string;
  sites: RawSelection;
  kinds: ItemKind[];
  include: Valued<string>[];
  exclude: Valued<string>[];
  maxLevel: VersionLevel;
  place: Place;
  window?: RawWindow;
  minReleaseAge?: Valued<string>;
}

export interface RawWindow {
  schedule: Valued<string>[];
  timezone: Valued<string>;
  place: Place;
}

export interface RawWaveAfter {
  wave: Valued<string>;
  healthyFor: string;
}

export type RawHealth = HealthRules;

export interface RawHold {
  sites: RawSelection;
  kind: ItemKind;
  slug: string;
  pin?: string;
  versions?: string[];
  reason?: string;
  place: Place;
}

export interface RawWave {
  name: string;
  sites: RawSelection;
  maxFailures: number;
  place: Place;
  window?: RawWindow;
  after?: RawWaveAfter;
  maxUnhealthy?: number;
  paths?: HealthPath[];
}

/** `security:` as written; the feed's file path is already resolved against its YAML file's directory. */
export interface RawSecurity {
  source:
    | { type: 'wordfence'; feed: 'production' | 'scanner'; url?: string }
    | { type: 'file'; path: string; format: 'wordfence' | 'svc' };
  refreshAfter: string;
  maxAge: string;
  installed: boolean;
  bypass: { soak: boolean; window: boolean };
  approval: { maxSites?: number; core: boolean; major: boolean };
}

/** One file's content, normalised but with groups still unexpanded (they may live in other files). */
export interface FileState {
  file: string;
  version: Valued<1>;
  groups: RawGroup[];
  sites?: RawSelection;
  unmanaged?: Valued<IgnoreScope>;
  ignoreRules: RawIgnoreRule[];
  policies: RawPolicy[];
  holds: RawHold[];
  waves?: Valued<RawWave[]>;
  health?: Valued<RawHealth>;
  security?: Valued<RawSecurity>;
  approval: {
    maxSites?: Valued<number>;
    core?: Valued<boolean>;
    major?: Valued<boolean>;
  };
}

/** All files merged: singletons resolved, lists concatenated in file order. */
export interface MergedState {
  groups: Map<string, RawGroup>;
  sites?: RawSelection;
  unmanaged?: Valued<IgnoreScope> | undefined;
  ignoreRules: RawIgnoreRule[];
  policies: RawPolicy[];
  holds: RawHold[];
  waves: RawWave[];
  health?: Valued<RawHealth> | undefined;
  security?: Valued<RawSecurity> | undefined;
  approval: {
    maxSites?: Valued<number> | undefined;
    core?: Valued<boolean> | undefined;
    major?: Valued<boolean> | undefined;
  };
}
