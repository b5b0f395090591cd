import type { Explanation } from '../../engine/index.js';
import type { SessionPlan as Planned } from '../../index.js';
import {
  countDiagnostics,
  haltText,
  renderDiagnosticsText,
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
} from '../../render/index.js';
import { type ComposedOutcome, type ToolDef, toolError, toolOk } from '../tool-result.js';
import { planThrough, validateSource } from './sessions.js';
import { type GitopsToolOptions, MARKDOWN_CAP, READ } from './tool-options.js';

/** `<p>_validate`: a desired state checked against the schema and rules; no dashboard call. */
export function validateTool(options: GitopsToolOptions): ToolDef {
  const name = `${options.prefix}_validate`;
  return {
    name,
    title: 'Validate the desired state',
    description:
      'Checks a desired-state YAML (config: a path inside the working directory, default svc-gitops.yaml or svc-gitops/; or yaml: the text) against the schema and rules; every problem with file:line:col and a hint. Does not contact the dashboard.',
    inputSchema: {
      type: 'object',
      properties: {
        config: {
          type: 'string',
          maxLength: 1000,
          description: `file or directory inside the working directory, as ${options.prefix}_plan takes it`,
        },
        path: { type: 'string', maxLength: 1000, description: 'the same as config' },
        yaml: { type: 'string', maxLength: 4_194_304, description: 'desired-state YAML text' },
      },
      additionalProperties: false,
    },
    annotations: READ,
    destructive: false,
    async run(args) {
      const given = ['config', 'path', 'yaml'].filter((key) => args[key] !== undefined);
      if (given.length > 1) {
        return toolError(
          'INVALID_PARAMETER',
          `give one of config, path or yaml, not ${given.join(' and ')}`,
          {
            tool: name,
          },
        );
      }
      const path = args.config ?? args.path;
      const validated = await validateSource(options.sessions(), {
        ...(typeof path === 'string' ? { path } : {}),
        ...(typeof args.yaml === 'string' ? { yaml: args.yaml } : {}),
      });
      const { errors, warnings } = countDiagnostics(validated.diagnostics);
      const valid = validated.desired !== undefined;
      const verdict = `${validated.source}: ${valid ? 'valid' : `invalid (${errors} error(s))`}${warnings ? `, ${warnings} warning(s)` : ''}`;
      return toolOk(
        {
          valid,
          source: validated.source,
          errors,
          warnings,
          diagnostics: validated.diagnostics.slice(0, 200),
          ...(validated.desired ? { digest: validated.desired.digest } : {}),
        },
        `${renderDiagnosticsText(validated.diagnostics, { colour: false })}${verdict}\n`,
      );
    },
  };
}

/** `<p>_show_plan`: a plan of this session as markdown, text or the JSON plan file. */
export function showPlanTool(options: GitopsToolOptions): ToolDef {
  const name = `${options.prefix}_show_plan`;
  return {
    name,
    title: 'Show a plan',
    description: `Shows a plan of this session (the last one by default) as markdown, text or the JSON plan file.`,
    inputSchema: {
      type: 'object',
      properties: {
        plan_id: { type: 'string', maxLength: 100 },
        format: { type: 'string', enum: ['markdown', 'text', 'json'] },
      },
      additionalProperties: false,
    },
    annotations: READ,
    destructive: false,
    async run(args) {
      const planned = findPlan(options, name, args.plan_id);
      if ('structured' in planned) return planned;
      const { plan } = planned;
      const format = typeof args.format === 'string' ? args.format : 'markdown';
      const text =
        format === 'json'
          ? renderPlanJson(plan)
          : format === 'text'
            ? renderPlanText(plan, { colour: false })
            : renderPlanMarkdown(plan, { live: planned.live, maxChars: MARKDOWN_CAP });
      return toolOk({ plan_id: plan.id, summary: plan.summary, format, plan: text }, text);
    },
  };
}

/** `<p>_drift`: whether the live dashboard drifted from the desired state (a plan with actions). */
export function driftTool(options: GitopsToolOptions): ToolDef {
  return {
    name: `${options.prefix}_drift`,
    title: 'Detect drift',
    description:
      'Plans against the live dashboard and says whether it drifted from the desired state (a plan with actions).',
    inputSchema: {
      type: 'object',
      properties: { config: { type: 'string', maxLength: 1000 } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    destructive: false,
    async run(args, signal) {
      const planned = await planThrough(
        options.sessions(),
        typeof args.config === 'string' ? { config: args.config } : {},
        signal,
      );
      options.plans.add(planned);
      const drift = planned.plan.actions.length > 0;
      const markdown = renderPlanMarkdown(planned.plan, { live: planned.live, maxChars: MARKDOWN_CAP });
      return toolOk(
        { drift, plan_id: planned.plan.id, summary: planned.plan.summary, markdown },
        `${drift ? 'Drift found.' : 'No drift.'}\n\n${markdown}`,
      );
    },
  };
}

/** `<p>_explain`: why an item on a site is (not) updated or ignored, from a plan of this session. */
export function explainTool(options: GitopsToolOptions): ToolDef {
  const name = `${options.prefix}_explain`;
  return {
    name,
    title: 'Explain an item',
    description:
      'Why is this item on this site (not) updated or ignored? Answered from a plan of this session (the last by default): the rule, policy, hold or wave with its file:line, and the live facts.',
    inputSchema: {
      type: 'object',
      properties: {
        site: { type: 'string', maxLength: 500, description: 'site ID or domain' },
        item: {
          type: 'string',
          maxLength: 500,
          description: 'core, plugin:<slug>, theme:<slug>, translation:<slug> or a slug',
        },
        plan_id: { type: 'string', maxLength: 100 },
      },
      required: ['site', 'item'],
      additionalProperties: false,
    },
    annotations: READ,
    destructive: false,
    async run(args) {
      const planned = findPlan(options, name, args.plan_id);
      if ('structured' in planned) return planned;
      const answer = options
        .sessions()
        .open()
        .explain(planned, { site: String(args.site), item: String(args.item) });
      return toolOk({ ...answer }, explanationText(answer));
    },
  };
}

/** The plan `id` names (the last of the session when absent), or the refusal that says there is none. */
export function findPlan(options: GitopsToolOptions, tool: string, id: unknown): Planned | ComposedOutcome {
  const planned = typeof id === 'string' ? options.plans.get(id) : options.plans.last();
  if (planned) return planned;
  return toolError(
    'PREVIEW_REQUIRED',
    typeof id === 'string' ? `no plan ${id} in this session` : 'no plan yet in this session',
    { tool, resolution: `call ${options.prefix}_plan first` },
  );
}

/** The explanation, then when: the site's wave, the gates its updates passed, a held rollout. */
function explanationText(answer: Explanation): string {
  if (!answer.found) return answer.explanation;
  const lines = [answer.explanation];
  if (answer.wave !== undefined)
    lines.push(`Wave: ${answer.wave} (rollout order: ${answer.waves?.join(' → ')}).`);
  const gates = answer.gates;
  for (const window of gates?.windows ?? [])
    lines.push(`Window of ${window.of}: ${window.schedule.join(', ')} (${window.timezone}).`);
  if (gates?.soak_ends_at) lines.push(`Soak ends at ${gates.soak_ends_at}.`);
  if (gates?.after)
    lines.push(
      `After wave ${gates.after.wave} has been healthy for ${gates.after.healthy_for}: from ${gates.after.opens_at}.`,
    );
  if (answer.halt) lines.push(haltText(answer.halt));
  return `${lines.join('\n')}\n`;
}
