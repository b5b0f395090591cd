import type { SessionPlan as Planned } from '../../index.js';

/** Plans kept for apply, show and explain. A 10,000-site plan with its live state is tens of MB. */
const KEPT = 3;

/** The last few plans of this session by id, newest last; memory only. */
export class PlanStore {
  private readonly plans = new Map<string, Planned>();

  add(planned: Planned): void {
    this.plans.delete(planned.plan.id);
    this.plans.set(planned.plan.id, planned);
    while (this.plans.size > KEPT) {
      const oldest = this.plans.keys().next().value;
      if (oldest === undefined) break;
      this.plans.delete(oldest);
    }
  }

  get(id: string): Planned | undefined {
    return this.plans.get(id);
  }

  last(): Planned | undefined {
    return [...this.plans.values()].at(-1);
  }
}
