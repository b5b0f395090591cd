import type { ToolDef } from '../tool-result.js';
import { applyTool } from './apply-tool.js';
import { planTool } from './plan-tool.js';
import { driftTool, explainTool, showPlanTool, validateTool } from './read-tools.js';
import { statusTool } from './status-tool.js';
import type { GitopsToolOptions } from './tool-options.js';

export type { GitopsToolOptions } from './tool-options.js';

/**
 * The GitOps tools: the same reviewed plan → approved apply discipline a pull request gets.
 * `plan` is the preview; `apply` runs exactly the plan it names, once the user said yes (asked
 * by the server where the client can, else through the plan's one token), and nothing else can
 * make it act.
 */
export function gitopsTools(options: GitopsToolOptions): ToolDef[] {
  return [
    validateTool(options),
    planTool(options),
    applyTool(options),
    showPlanTool(options),
    driftTool(options),
    explainTool(options),
    statusTool(options),
  ];
}
