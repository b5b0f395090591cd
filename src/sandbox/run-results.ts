import type { KindName, UpdateEntry } from './entries.js';

// What running updates on the sandbox's sites produces, shared by the executor and the job queue:
// the queue is part of the context and the executor takes the context, so the queue must not
// import the executor.

/** An updated entry (run results); versions are the stored ones from before the run. */
export interface UpdatedEntry {
  site_id: number;
  site_url: string;
  site_name: string;
  type: UpdateEntry['type'];
  slug: string;
  name: string;
  old_version: string;
  new_version: string;
}

/** An `errors[]` item of the abilities (dashboard-facts §3.3). */
export interface ErrorItem {
  site_id: number;
  site_url: string;
  site_name?: string;
  type: string;
  slug: string;
  code: string;
  message: string;
}

export interface RunSelection {
  kinds: readonly KindName[];
  /** Exact slugs to run; undefined runs every pending item of the kinds. */
  slugs?: ReadonlySet<string> | undefined;
}

export interface SiteRunResult {
  updated: UpdatedEntry[];
  errors: ErrorItem[];
  /** Set when the whole site was refused (offline); no item ran. */
  siteError?: ErrorItem;
}
