import { SvcError } from '../../errors.js';
import type { ItemRef } from '../../types.js';
import { parseRunPreview } from '../wire/preview.js';
import type { AbilityCaller } from './call.js';

/**
 * The confirmation inputs an update ability needs. A dashboard that does not declare `confirm`
 * (release 6.1) needs none. One that declares it (the next release, dashboard-facts §9) gets its
 * own flow: with `dry_run` declared, a dry run first, whose preview must stay within the planned
 * items (more would touch what nobody approved: refused before anything runs), then
 * `confirm: true` with the preview's token when `preview_token` is declared. The approved plan
 * is the person's confirmation.
 */
export async function confirmationInput(
  caller: AbilityCaller,
  ability: string,
  input: Record<string, unknown>,
  planned: { siteIds: readonly number[]; items: readonly ItemRef[] },
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  if (!caller.declares(ability, 'confirm')) return {};
  if (!caller.declares(ability, 'dry_run')) return { confirm: true };
  const name = caller.info(ability)?.name ?? ability;
  const preview = parseRunPreview(
    await caller.call(ability, { ...input, dry_run: true }, signal),
    `ability ${name} (dry run)`,
  );
  const allowed = new Set(
    planned.siteIds.flatMap((id) => planned.items.map((i) => `${id}|${i.kind}|${i.slug}`)),
  );
  const unplanned = preview.items.filter((i) => !allowed.has(`${i.siteId}|${i.kind}|${i.slug}`));
  if (unplanned.length > 0) {
    const first = unplanned[0];
    throw new SvcError(
      'APPLY_FAILED',
      `the dashboard's dry run of ${name} would also update ${unplanned.length} item(s) the plan does not contain (first: site ${first?.siteId} ${first?.kind} ${first?.slug}); nothing was run`,
      { hint: 'Run plan again: the live state changed since this plan was made.' },
    );
  }
  const out: Record<string, unknown> = { confirm: true };
  if (preview.token && caller.declares(ability, 'preview_token')) out.preview_token = preview.token;
  return out;
}
