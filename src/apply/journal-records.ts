import type { Action, ActionStatus, PlanGate } from '../types.js';

/** The apply journal's records as readers see them (journal.ts writes and reads them). */

export type JournalRecord =
  | {
      type: 'run-start';
      run_id: string;
      at: string;
      plan_id: string;
      dashboard: string;
      desired_digest: string;
      /**
       * The approved actions this run set out to do (resume runs only what is left of them),
       * without their `reason` (for people, never for recovery; the plan file has it).
       */
      actions: Array<Omit<Action, 'reason'> & { reason?: string }>;
      /** The plan's wave thresholds (`Plan.wave_limits`), so a resume without a config keeps them. */
      wave_limits?: Record<string, number>;
      /** The plan's gates (`Plan.gates`), so a resumed run judges them again as it writes. */
      gates?: PlanGate[];
    }
  | {
      type: 'sent';
      run_id: string;
      seq: number;
      at: string;
      /** What was sent (older journals only: compact lines name the actions instead). */
      call?: JournalCall;
      /** Change keys of the call's actions (absent in some older journals). */
      actions?: string[];
    }
  | {
      type: 'result';
      run_id: string;
      seq: number;
      at: string;
      outcomes: Array<{ key: string; status: ActionStatus; code?: string }>;
    }
  | {
      type: 'run-end';
      run_id: string;
      at: string;
      interrupted: boolean;
      failed: number;
      /**
       * False when the re-read after the calls failed or could not read a site it checks
       * (absent in older journals: it ran).
       */
      verified?: boolean;
      /**
       * Set when the run stopped sending because the dashboard could not be reached
       * (DASHBOARD_UNREACHABLE) or a wave left too many unhealthy sites (UNHEALTHY): like an
       * interrupted run, `apply --resume` finishes it (after a passing health check).
       */
      stopped?: string;
    };

export type JournalCall =
  | { type: 'set-ignored'; site_id: number; kind: string; direction: string; slugs: string[] }
  | { type: 'run-updates'; site_ids: number[]; items: Array<{ kind: string; slug: string }> };
