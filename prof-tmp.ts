import { createPlan } from './src/plan/index.js';
import { benchDesiredState, generateFleet } from './scripts/bench/fixtures.js';
const live = generateFleet({ sites: 10000, pendingPerSite: 50, ignoredPerSite: 3 });
for (let i = 0; i < 2; i++) { const t = performance.now(); createPlan(benchDesiredState(), live, { now: new Date(0), lifetimeMinutes: 5 }); console.log(performance.now() - t); }
