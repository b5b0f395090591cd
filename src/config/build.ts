import { createHash } from 'node:crypto';
import { durationMs } from '../schedule/index.js';
import type { DesiredFile, DesiredState, Hold, UpdatePolicy, UpdateWindow, Wave } from '../types.js';
import { expandSelection } from './expand.js';
import type { MergedState, RawWindow } from './model.js';
import type { Locate } from './places.js';
import { buildSecurity } from './security.js';

/**
 * The final, normalised DesiredState: groups expanded, defaults applied (all sites, unmanaged
 * ignores reported, core and major updates need approval, waves tolerate no failure), every rule
 * carrying its source.
 */
export function buildDesiredState(merged: MergedState, files: DesiredFile[], locate: Locate): DesiredState {
  const select = (raw: Parameters<typeof expandSelection>[0]) => expandSelection(raw, merged.groups, locate);
  const approval: DesiredState['approval'] = {
    coreNeedsApproval: merged.approval.core?.value ?? true,
    majorNeedsApproval: merged.approval.major?.value ?? true,
  };
  if (merged.approval.maxSites) approval.maxSitesWithoutApproval = merged.approval.maxSites.value;
  return {
    version: 1,
    sites: merged.sites ? select(merged.sites) : { include: [{ type: 'all' }], exclude: [] },
    ...(merged.sites ? { sitesSource: locate(merged.sites.place) } : {}),
    ignoreScope: merged.unmanaged?.value ?? 'report',
    ignores: merged.ignoreRules.map((r) => ({
      selection: select(r.sites),
      core: r.core,
      plugins: uniqueValues(r.plugins),
      themes: uniqueValues(r.themes),
      ...(r.siteFlags ? { siteFlags: r.siteFlags } : {}),
      source: locate(r.place),
    })),
    policies: merged.policies.map((p) => {
      const policy: UpdatePolicy = {
        name: p.name,
        selection: select(p.sites),
        kinds: p.kinds,
        include: uniqueValues(p.include),
        exclude: uniqueValues(p.exclude),
        maxLevel: p.maxLevel,
        source: locate(p.place),
      };
      if (p.window) policy.window = windowOf(p.window);
      if (p.minReleaseAge) {
        const text = p.minReleaseAge.value;
        policy.minReleaseAge = { text, ms: durationMs(text) };
      }
      return policy;
    }),
    holds: merged.holds.map((h) => {
      const hold: Hold = { selection: select(h.sites), kind: h.kind, slug: h.slug, source: locate(h.place) };
      if (h.pin !== undefined) hold.maxVersion = h.pin;
      if (h.versions !== undefined) hold.versions = h.versions;
      if (h.reason !== undefined) hold.reason = h.reason;
      return hold;
    }),
    waves: merged.waves.map((w) => {
      const wave: Wave = { name: w.name, selection: select(w.sites), maxFailures: w.maxFailures };
      if (w.window) wave.window = windowOf(w.window);
      if (w.after) {
        const text = w.after.healthyFor;
        wave.after = { wave: w.after.wave.value, healthyFor: { text, ms: durationMs(text) } };
      }
      if (w.maxUnhealthy !== undefined) wave.maxUnhealthy = w.maxUnhealthy;
      if (w.paths !== undefined) wave.paths = w.paths;
      return wave;
    }),
    ...(merged.health ? { health: { ...merged.health.value } } : {}),
    approval,
    ...securityPart(merged, locate),
    files,
    digest: digestOf(files),
  };
}

/** sha256 over the sorted `path NUL sha256 LF` lines of the files: stable under reordering. */
export function digestOf(files: readonly DesiredFile[]): string {
  const lines = files.map((f) => `${f.path}\0${f.sha256}\n`).sort();
  return createHash('sha256').update(lines.join('')).digest('hex');
}

function windowOf(raw: RawWindow): UpdateWindow {
  return { schedule: raw.schedule.map((s) => s.value), timezone: raw.timezone.value };
}

function uniqueValues(list: Array<{ value: string }>): string[] {
  return [...new Set(list.map((v) => v.value))];
}

function securityPart(merged: MergedState, locate: Locate): Pick<DesiredState, 'security'> {
  const security = buildSecurity(merged, locate);
  return security ? { security } : {};
}
