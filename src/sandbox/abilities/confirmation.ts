import { nsCode, type SandboxContext } from '../context.js';
import { errorReply, type Reply } from '../http-util.js';

/**
 * The next release's two-step rule for a gated ability (dashboard-facts §9): exactly one of
 * `dry_run` and `confirm` must be true. The refusal when the input breaks it, else undefined.
 * `requires` starts the message: `Updates require`, `Unignoring requires`.
 */
export function refuseUnconfirmed(
  ctx: SandboxContext,
  input: Record<string, unknown>,
  requires: string,
  preview: string,
): Reply | undefined {
  const dryRun = input.dry_run === true;
  const confirm = input.confirm === true;
  if (dryRun && confirm)
    return errorReply(400, nsCode(ctx, 'invalid_input'), 'Cannot specify both dry_run and confirm.');
  if (!dryRun && !confirm)
    return errorReply(
      400,
      nsCode(ctx, 'confirmation_required'),
      `${requires} confirm: true. Call with dry_run: true first to ${preview}.`,
    );
  return undefined;
}
