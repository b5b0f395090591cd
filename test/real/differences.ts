/**
 * Every difference the differential test sees between MainWP 6.1.2 and the sandbox, each with
 * its reason (docs/dashboard-reading.md, "The real dashboard", lists the same). A pattern
 * matches whole lines of the test's report (`<probe>: <difference>`).
 */
export interface ListedDifference {
  pattern: RegExp;
  reason: string;
}

export const LISTED_DIFFERENCES: readonly ListedDifference[] = [
  {
    pattern: /^(catalogue|catalogue item|categories): \$(\[\])?\._links: only on the real dashboard$/,
    reason: "WordPress's HAL links; svc-gitops never follows them, the sandbox sends none.",
  },
  {
    pattern:
      /^catalogue: \$\[\]\.input_schema\.(properties\.(exclude_ids|site_ids): only on the real dashboard|properties\.job_id\.pattern: only on the real dashboard|type: real string, sandbox array)$/,
    reason:
      'The live catalogue differs from the shipped catalogue document the sandbox copies verbatim (abilities the sandbox serves as definitions only, and list-sites-v1 typed ["object","null"] there).',
  },
  {
    pattern:
      /^get-batch-job-status-v1 bad id: code: real ability_invalid_input, sandbox mainwp_invalid_job_id$/,
    reason:
      "The live schema checks job_id with a pattern before the ability runs; the sandbox's validator knows no patterns and answers with the ability's own 400 (dashboard-facts §3.5). svc-gitops only sends job ids the dashboard gave it.",
  },
  {
    pattern: /^run anonymous: \$\.additional_data: only on the real dashboard$/,
    reason:
      'WordPress adds the original error data to an anonymous permission failure; svc-gitops reads code and message only.',
  },
  {
    pattern:
      /^REST site updates: \$\.data\.(plugins|themes)\..+\.(\w+|update\.\w+): only on the real dashboard$/,
    reason:
      "MainWP's per-site REST listing carries the child's whole plugin and theme headers and WordPress's update offer; the sandbox sends the fields an update is read from (Name, Version, update.new_version).",
  },
];
