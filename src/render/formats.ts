import type { Plan } from '../types.js';
import { renderApplyJson } from './apply-json.js';
import { renderApplyMarkdown } from './apply-markdown.js';
import type { ApplyReport } from './apply-report.js';
import { renderApplyText } from './apply-text.js';
import { renderPlanJson } from './plan-json.js';
import { renderPlanMarkdown } from './plan-markdown.js';
import { renderPlanText } from './plan-text.js';

/** The views of a plan and of an apply report: text for a terminal, markdown for a PR, JSON for programs. */
export type ReportFormat = 'text' | 'markdown' | 'json';
export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'markdown', 'json'];

export interface RenderPlanOptions {
  /**
   * Text and markdown: per-site detail by site (default) or by item. JSON: adds the `groups`
   * section (docs/plan-format.md); without it the JSON is the plan alone.
   */
  groupBy?: 'site' | 'item' | undefined;
  /** Text only: ANSI colour (for a terminal without NO_COLOR). */
  colour?: boolean | undefined;
}

/** A plan as `svc-gitops plan` prints it; `json` is the saved plan file's exact text. */
export function renderPlan(plan: Plan, format: ReportFormat, options: RenderPlanOptions = {}): string {
  if (format === 'json') return renderPlanJson(plan, { groupBy: options.groupBy });
  if (format === 'markdown')
    return renderPlanMarkdown(plan, options.groupBy === undefined ? {} : { groupBy: options.groupBy });
  return renderPlanText(plan, {
    ...(options.groupBy === undefined ? {} : { groupBy: options.groupBy }),
    ...(options.colour === undefined ? {} : { colour: options.colour }),
  });
}

/** An apply report as `svc-gitops apply` prints it. */
export function renderApplyReport(report: ApplyReport, format: ReportFormat): string {
  if (format === 'json') return renderApplyJson(report);
  if (format === 'markdown') return renderApplyMarkdown(report);
  return renderApplyText(report);
}
