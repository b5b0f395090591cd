import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { EXIT } from '../../errors.js';
import { checkIntegrity, isExpired, readPlanFile } from '../../index.js';
import { type GroupBy, safeText } from '../../render/index.js';
import type { CliContext } from '../context.js';
import { groupByOption, type PlanFormat, printPlan } from '../print-plan.js';

interface ShowFlags {
  format: PlanFormat;
  groupBy?: GroupBy;
  detailedExitcode?: boolean;
}

/**
 * `svc-gitops show PLANFILE`: a saved plan rendered as `plan` renders it, without contacting the
 * dashboard (for reviewing a plan artifact, or posting it by hand). Only a plan whose content
 * still matches its id is shown: an edited file is refused as apply refuses it, so what a
 * reviewer reads here is what apply would run. An expired plan is shown with a warning, since
 * apply would refuse it.
 */
export function registerShow(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('show')
    .description('print a saved plan (from `plan --out FILE`) without contacting the dashboard')
    .argument('<planfile>', 'the JSON plan written by `svc-gitops plan --out FILE`')
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text'),
    )
    .addOption(groupByOption())
    .option('--detailed-exitcode', 'exit 2 when the plan has changes, 0 when it has none')
    .action(async (planfile: string, flags: ShowFlags) => setExit(await show(ctx, planfile, flags)));
}

export async function show(ctx: CliContext, planfile: string, flags: ShowFlags): Promise<number> {
  const plan = readPlanFile(ctx.fs, resolve(ctx.cwd, planfile));
  checkIntegrity(plan);
  if (isExpired(plan, ctx.now())) {
    ctx.stderr.write(
      `svc-gitops: warning: this plan expired at ${safeText(plan.expires_at)}; apply would refuse it (plan again to apply)\n`,
    );
  }
  await printPlan(ctx, plan, flags.format, flags.groupBy);
  return flags.detailedExitcode && plan.actions.length > 0 ? EXIT.changes : EXIT.ok;
}
