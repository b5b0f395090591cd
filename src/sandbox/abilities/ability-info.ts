import type { Schema } from './validate.js';

export interface Annotations {
  readonly: boolean;
  destructive: boolean;
  idempotent: boolean;
  instructions: string;
}

/** Catalogue data of one ability; `name` is without the namespace. */
export interface AbilityInfo {
  name: string;
  label: string;
  description: string;
  category: string;
  input: Schema;
  output: Schema;
  annotations: Annotations;
  /** Single-site abilities resolve `site_id_or_domain` inside the permission check. */
  singleSite: boolean;
  /** A namespace other than the dashboard's own (WordPress core's `core`). */
  namespace?: string;
  /** Served as a definition only: running it answers 501 (quirk `fullShippedCatalogue`). */
  definitionOnly?: boolean;
}
