import type * as nodeFs from 'node:fs';
import { jsonSyntaxPlace, SvcError } from '../errors.js';
import { summarise } from '../plan/index.js';
import type { Plan, PlanSummary } from '../types.js';

/**
 * Reads a saved plan file. Only the shape apply relies on is checked here (a wrong file gives
 * PLAN_INVALID naming what is wrong); whether the content is the one that was planned is the
 * guard's integrity check (the recomputed id).
 */
export function readPlanFile(fs: typeof nodeFs, path: string): Plan {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8') as string;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SvcError(
      code === 'ENOENT' ? 'USAGE' : 'IO_ERROR',
      `cannot read the plan file ${path}${code ? ` (${code})` : ''}`,
      {
        hint: 'save a plan with `svc-gitops plan --out FILE` (format json)',
        cause: error,
      },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SvcError('PLAN_INVALID', `${path} is not JSON (${jsonSyntaxPlace(error, text)})`, {
      hint: 'apply takes the JSON plan written by `svc-gitops plan --out FILE`',
    });
  }
  const problem = shapeProblem(value);
  if (problem) throw new SvcError('PLAN_INVALID', `${path} is not a svc-gitops plan: ${problem}`);
  return value as Plan;
}

const NOTE_KINDS = new Set<string>([
  'unreadable-site',
  'unmanaged-ignore',
  'cannot-unignore',
  'cannot-ignore',
  'held',
  'offline-site',
  'needs-approval',
  'unknown-site',
]);

/** Notes are printed (apply shows the plan): only the shapes the planner writes get that far. */
function validNote(value: unknown): boolean {
  const note = value as Record<string, unknown> | null;
  if (!note || typeof note !== 'object' || !NOTE_KINDS.has(note.kind as string)) return false;
  if (typeof note.message !== 'string') return false;
  const ids = note.site_ids;
  if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => Number.isInteger(id) && id >= 0)))
    return false;
  const urls = note.site_urls;
  if (
    urls !== undefined &&
    !(Array.isArray(urls) && urls.length === ids?.length && urls.every((url) => typeof url === 'string'))
  )
    return false;
  const item = note.item as Record<string, unknown> | undefined;
  return item === undefined || (typeof item?.kind === 'string' && typeof item.slug === 'string');
}

function shapeProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'the root is not an object';
  const plan = value as Record<string, unknown>;
  if (plan.format_version !== 3)
    return `format_version is ${JSON.stringify(plan.format_version)}, expected 3 (plan it again with this svc-gitops)`;
  for (const key of ['id', 'created_at', 'expires_at', 'desired_digest'] as const) {
    if (typeof plan[key] !== 'string') return `${key} is missing or not a string`;
  }
  const dashboard = plan.dashboard as { url?: unknown } | undefined;
  if (typeof dashboard?.url !== 'string') return 'dashboard.url is missing';
  if (!Array.isArray(plan.actions)) return 'actions is not an array';
  for (const [index, action] of (plan.actions as unknown[]).entries()) {
    const a = action as Record<string, unknown> | null;
    if (
      !a ||
      !['ignore', 'unignore', 'update'].includes(a.op as string) ||
      !Number.isInteger(a.site_id) ||
      !['core', 'plugin', 'theme', 'translation'].includes(a.kind as string) ||
      typeof a.slug !== 'string' ||
      !['low', 'medium', 'high'].includes(a.risk as string)
    ) {
      return `actions[${index}] is not a valid action`;
    }
  }
  if (plan.fingerprints === null || typeof plan.fingerprints !== 'object') return 'fingerprints is missing';
  if (!Array.isArray(plan.notes)) return 'notes is not an array';
  for (const [index, note] of (plan.notes as unknown[]).entries()) {
    if (!validNote(note)) return `notes[${index}] is not a valid note`;
  }
  if (typeof plan.needs_approval !== 'boolean') return 'needs_approval is missing';
  for (const key of ['created_at', 'expires_at'] as const) {
    if (!ISO_TIME.test(plan[key] as string)) return `${key} is not a UTC time (${safeJson(plan[key])})`;
  }
  return summaryProblem(plan.summary, plan.actions as Plan['actions']);
}

/** The form createPlan writes times in (Date.toISOString). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function safeJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * The summary is derived data that views print first ("No changes", "3 to update"): a file whose
 * summary disagrees with its actions would tell a reviewer something other than what apply runs.
 */
function summaryProblem(summary: unknown, actions: Plan['actions']): string | undefined {
  if (summary === null || typeof summary !== 'object') return 'summary is missing';
  const expected = summarise(actions);
  for (const key of Object.keys(expected) as Array<keyof PlanSummary>) {
    if ((summary as Record<string, unknown>)[key] !== expected[key]) {
      return `summary.${key} does not match the actions (${expected[key]} in the actions)`;
    }
  }
  return undefined;
}
