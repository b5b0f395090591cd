import type * as nodeFs from 'node:fs';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { type JsonSchemaCheck, planFileCheck } from '../config/index.js';
import { type Diagnostic, jsonSyntaxPlace, SvcError } from '../errors.js';
import { summarise } from '../plan/index.js';
import { type GroupBy, planGroups } from '../render/index.js';
import type { Plan, PlanSummary } from '../types.js';

/**
 * Reads a saved plan file: JSON, of this format, valid against `schemas/plan.schema.json` (every
 * problem located at file:line:col, as the desired state's are), and with derived data that
 * agrees with its actions. Whether the content is the one that was planned is the approval's
 * integrity check (the recomputed id). The `--group-by` presentation (`group_by`, `groups`) is
 * checked against the actions and then dropped: the plan returned is the one a file saved
 * without it gives, so nothing downstream can act on it.
 */

let planSchemaCheck: JsonSchemaCheck | undefined;
/** The schema (for its hints) is read at the first plan file read, once: `plan` never needs it. */
function checkPlanSchema(file: string, text: string, value: unknown): Diagnostic[] {
  planSchemaCheck ??= planFileCheck(
    JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')),
  );
  return planSchemaCheck(file, text, value);
}

/** Problems listed in the error's message; all of them are in its details. */
const LISTED = 5;

export function readPlanFile(fs: typeof nodeFs, path: string): Plan {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8') as string;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SvcError(
      code === 'ENOENT' ? 'USAGE' : 'IO_ERROR',
      `cannot read the plan file ${path}${code ? ` (${code})` : ''}`,
      { details: { reason: 'plan-file-unreadable', path }, cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SvcError('PLAN_INVALID', `${path} is not JSON (${jsonSyntaxPlace(error, text)})`, {
      details: { reason: 'plan-file-not-json', path },
    });
  }
  // Another format is told "plan again" on its own, not as every difference between the formats.
  const version = (value as { format_version?: unknown } | null)?.format_version;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && version !== 3) {
    throw new SvcError(
      'PLAN_INVALID',
      `${path} is not a svc-gitops plan: format_version is ${JSON.stringify(version)}, expected 3 (plan it again with this svc-gitops)`,
    );
  }
  const diagnostics = checkPlanSchema(path, text, value);
  if (diagnostics.length > 0) throw schemaRefusal(path, diagnostics);
  const plan = value as Plan;
  const problem = siteUrlsProblem(plan) ?? summaryProblem(plan.summary, plan.actions);
  if (problem) throw new SvcError('PLAN_INVALID', `${path} is not a svc-gitops plan: ${problem}`);
  const grouped = value as Plan & { group_by?: GroupBy; groups?: unknown[] };
  const groupsWrong = groupsProblem(grouped);
  if (groupsWrong) {
    throw new SvcError('PLAN_INVALID', `${path} is not a svc-gitops plan: ${groupsWrong}`, {
      hint: 'groups is derived from the actions: plan again (or drop group_by and groups, which changes nothing else)',
    });
  }
  delete grouped.group_by;
  delete grouped.groups;
  return plan;
}

/**
 * The groups say what the actions say, exactly: a program that reads them instead of the actions
 * must learn what apply would run (the schema has made sure group_by and groups come together).
 */
function groupsProblem(plan: Plan & { group_by?: GroupBy; groups?: unknown[] }): string | undefined {
  if (plan.group_by === undefined || plan.groups === undefined) return undefined;
  const expected = planGroups(plan.actions, plan.group_by);
  if (plan.groups.length !== expected.length) {
    return `groups lists ${plan.groups.length} entries; the actions make ${expected.length} by ${plan.group_by}`;
  }
  const index = expected.findIndex((group, i) => !isDeepStrictEqual(group, plan.groups?.[i]));
  if (index >= 0) return `groups[${index}] does not match the actions (group_by ${plan.group_by})`;
  return undefined;
}

function schemaRefusal(path: string, diagnostics: Diagnostic[]): SvcError {
  const listed = diagnostics.slice(0, LISTED).map(located);
  const more = diagnostics.length > LISTED ? `\n  … and ${diagnostics.length - LISTED} more` : '';
  return new SvcError(
    'PLAN_INVALID',
    `${path} is not a svc-gitops plan (${diagnostics.length} problem${diagnostics.length === 1 ? '' : 's'}):\n  ${listed.join('\n  ')}${more}`,
    {
      details: { reason: 'plan-file-schema', path, diagnostics },
    },
  );
}

/** `file:line:col: message (at /json/path)`, as desired-state diagnostics are printed. */
function located(d: Diagnostic): string {
  const place = d.file ? `${d.file}${d.line ? `:${d.line}:${d.col ?? 1}` : ''}: ` : '';
  return `${place}${d.message}${d.path ? ` (at ${d.path})` : ''}`;
}

/** A note's addresses name exactly its sites: one per site id, in the same order. */
function siteUrlsProblem(plan: Plan): string | undefined {
  const index = plan.notes.findIndex(
    (note) => note.site_urls !== undefined && note.site_urls.length !== note.site_ids?.length,
  );
  if (index < 0) return undefined;
  return `notes[${index}] lists ${plan.notes[index]?.site_urls?.length} site_urls for ${plan.notes[index]?.site_ids?.length ?? 0} site_ids (one address per site)`;
}

/**
 * The summary is derived data that views print first ("No changes", "3 to update"): a file whose
 * summary disagrees with its actions would tell a reviewer something other than what apply runs.
 */
function summaryProblem(summary: PlanSummary, actions: Plan['actions']): string | undefined {
  const expected = summarise(actions);
  for (const key of Object.keys(expected) as Array<keyof PlanSummary>) {
    if (summary[key] !== expected[key]) {
      return `summary.${key} does not match the actions (${expected[key]} in the actions)`;
    }
  }
  return undefined;
}
