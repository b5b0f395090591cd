import { dirname, isAbsolute, join } from 'node:path';
import { durationMs } from '../schedule/index.js';
import type { SecurityConfig } from '../types.js';
import type { MergedState, RawSecurity } from './model.js';
import type { Locate } from './places.js';

type Obj = Record<string, unknown>;

/** Wordfence Intelligence vulnerability data feed v3: one JSON document per feed. */
export const WORDFENCE_FEEDS = {
  production: 'https://www.wordfence.com/api/intelligence/v3/vulnerabilities/production',
  scanner: 'https://www.wordfence.com/api/intelligence/v3/vulnerabilities/scanner',
} as const;

/** `security:` of one file (schema-valid): defaults applied, a feed file resolved against `file`. */
export function securityOf(file: string, data: Obj): RawSecurity {
  const feed = data.feed as Obj;
  const source: RawSecurity['source'] =
    typeof feed.file === 'string'
      ? {
          type: 'file',
          path: isAbsolute(feed.file) ? feed.file : join(dirname(file), feed.file),
          format: (feed.format as 'wordfence' | 'svc' | undefined) ?? 'wordfence',
        }
      : {
          type: 'wordfence',
          feed: feed.wordfence as 'production' | 'scanner',
          ...(typeof feed.url === 'string' ? { url: feed.url } : {}),
        };
  const bypass = (data.bypass as string[] | undefined) ?? ['soak', 'window'];
  const approval = (data.approval ?? {}) as Obj;
  return {
    source,
    refreshAfter: (data.refresh_after as string | undefined) ?? '1h',
    maxAge: (data.max_age as string | undefined) ?? '2d',
    installed: data.installed === true,
    bypass: { soak: bypass.includes('soak'), window: bypass.includes('window') },
    approval: {
      ...(typeof approval.max_sites === 'number' ? { maxSites: approval.max_sites } : {}),
      core: approval.core !== false,
      major: approval.major !== false,
    },
  };
}

export function buildSecurity(merged: MergedState, locate: Locate): SecurityConfig | undefined {
  if (!merged.security) return undefined;
  const raw = merged.security.value;
  const duration = (text: string) => ({ text, ms: durationMs(text) });
  const source: SecurityConfig['source'] =
    raw.source.type === 'file'
      ? raw.source
      : { type: 'wordfence', feed: raw.source.feed, url: raw.source.url ?? WORDFENCE_FEEDS[raw.source.feed] };
  return {
    source,
    refreshAfter: duration(raw.refreshAfter),
    maxAge: duration(raw.maxAge),
    installed: raw.installed,
    bypass: raw.bypass,
    approval: {
      coreNeedsApproval: raw.approval.core,
      majorNeedsApproval: raw.approval.major,
      ...(raw.approval.maxSites === undefined ? {} : { maxSitesWithoutApproval: raw.approval.maxSites }),
    },
    sourceRef: locate(merged.security.place),
  };
}
