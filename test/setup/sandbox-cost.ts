/**
 * The fast suite runs the sandbox without its per-site listing cost (site-cost.ts): tests judge
 * site-work by the sandbox's counters, never by its time. A test that wants the cost sets
 * `SandboxOptions.siteCost`.
 */
process.env.SVC_SANDBOX_SITE_COST_MS ??= '0';
