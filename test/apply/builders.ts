import type { Action, ItemKind, Plan } from '../../src/types.js';

/** Small builders for apply tests: plain data, readable defaults. */

export function update(siteId: number, kind: ItemKind, slug: string, extra: Partial<Action> = {}): Action {
  return {
    op: 'update',
    site_id: siteId,
    site_url: `https://site${siteId}.example.test/`,
    kind,
    slug,
    name: slug,
    from: '1.0.0',
    to: '1.0.1',
    risk: kind === 'core' ? 'high' : 'medium',
    reason: 'test',
    ...extra,
  };
}

export function ignore(
  siteId: number,
  kind: 'core' | 'plugin' | 'theme',
  slug: string,
  op: 'ignore' | 'unignore' = 'ignore',
): Action {
  return {
    op,
    site_id: siteId,
    site_url: `https://site${siteId}.example.test/`,
    kind,
    slug,
    name: slug,
    risk: 'low',
    reason: 'test',
  };
}

export function planOf(actions: Action[]): Plan {
  return {
    format_version: 3,
    id: 'a'.repeat(64),
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at: '2026-01-01T01:00:00.000Z',
    dashboard: { url: 'https://dashboard.example.test' },
    desired_digest: 'b'.repeat(64),
    actions,
    fingerprints: {},
    notes: [],
    summary: {
      ignore: actions.filter((a) => a.op === 'ignore').length,
      unignore: actions.filter((a) => a.op === 'unignore').length,
      update: actions.filter((a) => a.op === 'update').length,
      sites: new Set(actions.map((a) => a.site_id)).size,
      high_risk: actions.filter((a) => a.risk === 'high').length,
    },
    needs_approval: false,
  };
}
