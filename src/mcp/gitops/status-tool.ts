import { renderStatusMarkdown } from '../../render/index.js';
import type { ToolDef } from '../tool-result.js';
import { toolOk } from '../tool-result.js';
import { statusThrough } from './sessions.js';
import { type GitopsToolOptions, MARKDOWN_CAP } from './tool-options.js';

/**
 * `<p>_status`: the dashboard's items grouped by state (pending, soaking until, waiting for a
 * window, held and why, quarantined, failed, vulnerable), as `svc-gitops status` prints it:
 * the session's status use case, so the rollout state is read and recorded as a plan's is.
 */
export function statusTool(options: GitopsToolOptions): ToolDef {
  return {
    name: `${options.prefix}_status`,
    title: 'Show the rollout status',
    description:
      'What is pending, soaking (until when), waiting for a window (opens at), held (why), quarantined, failed in the last apply, or vulnerable, per item with site counts. Reads the dashboard; changes nothing.',
    inputSchema: {
      type: 'object',
      properties: { config: { type: 'string', maxLength: 1000 } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    destructive: false,
    async run(args, signal) {
      const config = typeof args.config === 'string' ? args.config : undefined;
      const { status } = await statusThrough(options.sessions(), config, signal);
      const markdown = renderStatusMarkdown(status, { maxChars: MARKDOWN_CAP });
      return toolOk({ ...status, markdown }, markdown);
    },
  };
}
