import * as fs from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import * as svc from 'svc-gitops';

const cwd = process.cwd();
const { settings } = svc.loadSettings({ env: process.env, cwd, fs, homeDir: homedir() });
const desired = svc.requireDesired(await svc.loadDesired({ cwd, config: 'svc-gitops.yaml' }));
const client = svc.openDashboard(settings);
const planned = await svc.planNow(client, { desired, lifetimeMinutes: settings.planLifetimeMinutes });
process.stdout.write(svc.renderPlan(planned.plan, 'text'));
const decision = await svc.approvePrompt(planned, { ...settings, autoApprove: true });
if (decision.kind === 'refused') throw svc.refusalError(decision);
if (decision.kind === 'approved') {
  const paths = svc.statePaths(resolve(cwd, '.svc-gitops'), client.url);
  const result = await svc.runApproved(decision, { client, settings, fs, paths });
  process.stdout.write(svc.renderApplyReport(svc.applyReport(decision, result, client.url), 'text'));
}
await client.close();
