import { ACTION_COMMANDS } from '../../src/cli/action.js';
import type { ActionMetadata, Job, Step } from './workflow-lint.js';

/**
 * Checks of how workflows use this repository's action, as plain functions so a test can feed
 * them a wrong step and see them fail: only declared inputs, only declared outputs, and no
 * install of svc-gitops from npm (the package is not published; the action runs its committed bundle).
 */

/** This repository's action: the templates' pinned `OWNER/svc-gitops@SHA`, or `./` in its own CI. */
export function isOwnAction(step: Step): boolean {
  return step.uses !== undefined && (/^[\w.-]+\/svc-gitops@/.test(step.uses) || /^\.\/?$/.test(step.uses));
}

/** A `uses:` value is either pinned to a full commit SHA or the local action. */
export function isPinnedOrLocal(uses: string): boolean {
  return /^[\w.-]+\/[\w.-]+(?:\/[\w./-]+)?@[0-9a-f]{40}$/.test(uses) || /^\.\/?$/.test(uses);
}

/** `with:` keys of a step that the action does not declare as inputs. */
export function undeclaredInputs(step: Step, action: ActionMetadata): string[] {
  return Object.keys(step.with ?? {}).filter((name) => !(name in action.inputs));
}

/** The commands the action dispatches on (src/cli/action.ts). */
export function actionCommands(): string[] {
  return [...ACTION_COMMANDS];
}

/**
 * `steps.<id>.outputs.<name>` references in a job whose step `<id>` uses the action, with a
 * name the action does not declare. References to other steps are not the action's concern.
 */
export function unknownOutputs(job: Job, action: ActionMetadata): string[] {
  const ownIds = new Set(job.steps.filter(isOwnAction).map((s) => s.id));
  const text = JSON.stringify(job);
  const unknown: string[] = [];
  for (const [, id, name] of text.matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
    if (ownIds.has(id) && !(name && name in action.outputs)) unknown.push(`steps.${id}.outputs.${name}`);
  }
  return unknown;
}

/** Lines that would install or run svc-gitops from the npm registry. */
export function npmInstallsOfSvcGitops(text: string): string[] {
  return text
    .split('\n')
    .filter((line) =>
      /\b(?:npm\s+(?:install|i|add|exec)|npx|yarn\s+(?:global\s+)?add|pnpm\s+(?:add|dlx))\b.*\bsvc-gitops\b/.test(
        line,
      ),
    );
}
