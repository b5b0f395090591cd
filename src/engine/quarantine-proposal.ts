import type * as nodeFs from 'node:fs';
import { join, resolve } from 'node:path';
import { addVersionHolds, type VersionHold } from '../config/index.js';
import { compileDesiredQuarantines, splitKey } from '../plan/index.js';
import type { DesiredState, PlanQuarantine } from '../types.js';
import { readRolloutState, rolloutStatePath } from './rollout-file.js';

/** A quarantine the desired state does not hold yet, as the pull request's evidence shows it. */
export type ProposedQuarantine = Omit<PlanQuarantine, 'held_sites' | 'in_desired_state'>;

export interface QuarantineProposal {
  /** The desired-state file the holds are added to (absolute). */
  file: string;
  /** Its text now (undefined: a new file of a config directory) and with the holds. */
  before: string | undefined;
  text: string;
  quarantines: ProposedQuarantine[];
}

/**
 * What the quarantine pull request proposes: a hold of each quarantined version the rollout
 * state records and neither adopted nor the desired state holds, added to the config file (a
 * config directory gets them in its `quarantine.yaml`). Undefined when there is nothing to
 * propose. Reading only: the front end writes it where it wants (a branch, a file).
 */
export function quarantineProposal(
  fs: typeof nodeFs,
  cwd: string,
  configPath: string,
  desired: DesiredState,
  now: Date,
): QuarantineProposal | undefined {
  const { state } = readRolloutState(fs, rolloutStatePath(cwd, configPath), now);
  const held = compileDesiredQuarantines(desired);
  const quarantines: ProposedQuarantine[] = [];
  for (const key of Object.keys(state.quarantines ?? {}).sort()) {
    const record = state.quarantines![key]!;
    if (record.adopted_at !== undefined || held(key)) continue;
    const [kind, slug, version] = splitKey(key);
    const entry: ProposedQuarantine = {
      kind: kind as ProposedQuarantine['kind'],
      slug,
      version,
      since: record.at,
      repair: record.sites,
    };
    if (record.wave !== undefined) entry.wave = record.wave;
    quarantines.push(entry);
  }
  if (quarantines.length === 0) return undefined;
  const config = resolve(cwd, configPath);
  const file = fs.statSync(config).isDirectory() ? join(config, 'quarantine.yaml') : config;
  const before = fs.existsSync(file) ? (fs.readFileSync(file, 'utf8') as string) : undefined;
  const holds = quarantines.map(
    (q): VersionHold => ({ kind: q.kind, slug: q.slug, version: q.version, reason: reasonOf(q) }),
  );
  return { file, before, text: addVersionHolds(before ?? '', holds), quarantines };
}

function reasonOf(q: ProposedQuarantine): string {
  const by = q.wave === undefined ? 'a health check' : `wave ${q.wave}'s health check`;
  return `quarantined by svc-gitops: ${by} found ${q.repair.length} site(s) unhealthy after it (${q.since})`;
}
