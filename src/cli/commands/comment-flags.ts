import type { TextOrJson } from '../format-option.js';

/** The options of `svc-gitops comment`, as commander parses them. */
export interface CommentFlags {
  config?: string;
  planFile?: string;
  compareTo?: string;
  out?: string;
  pr?: string;
  artifactName: string;
  artifactUrl?: string;
  dryRun?: boolean;
  quiet?: boolean;
  strict?: boolean;
  format: TextOrJson;
}
