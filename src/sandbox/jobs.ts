import { jobTimestamp, type SimClock } from './clock.js';
import type { RunSelection, UpdatedEntry } from './run-results.js';

/** Timings of the shipped queue (dashboard-facts §4), in milliseconds of simulated time. */
export const JOB_TIMING = {
  firstDelay: 60_000,
  chunkInterval: 30_000,
  chunkSize: 20,
  timeout: 4 * 3600_000,
  retention: 24 * 3600_000,
} as const;

export const JOB_PREFIXES = ['sync_', 'update_', 'reconnect_', 'disconnect_', 'check_', 'suspend_'];

export interface JobWork {
  siteId: number;
  kinds: RunSelection['kinds'];
  slugs: string[] | null;
}

/** What one JobWork produced: the entries updated and the errors, as the job status lists them. */
export interface JobWorkResult {
  updated: UpdatedEntry[];
  /** Sync jobs: the site synced. */
  synced?: boolean;
  errors: Array<{ site_id: number; code: string; message: string }>;
}

/** Runs one site's share of a job of `type` (the executor's, given by whoever advances the queue). */
export type JobRunner = (work: JobWork, type: Job['type']) => JobWorkResult;

export interface Job {
  job_id: string;
  type: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  nextChunkAt: number;
  work: JobWork[];
  processed: number;
  updated: UpdatedEntry[];
  /** Sync jobs: how many sites synced. */
  synced?: number;
  errors: Array<{ site_id: number; code: string; message: string }>;
  timedOut: boolean;
}

/** Queued run jobs, processed lazily against the simulated clock whenever someone looks. */
export class JobTable {
  readonly jobs = new Map<string, Job>();
  constructor(
    private readonly clock: SimClock,
    private readonly onChange: () => void,
  ) {}

  enqueue(work: JobWork[], id: string, type: 'update' | 'sync' = 'update'): Job {
    const now = this.clock.now();
    const job: Job = {
      job_id: id,
      type,
      status: 'queued',
      createdAt: now,
      startedAt: null,
      completedAt: null,
      nextChunkAt: now + JOB_TIMING.firstDelay,
      work,
      processed: 0,
      updated: [],
      errors: [],
      timedOut: false,
    };
    this.jobs.set(id, job);
    this.onChange();
    return job;
  }

  /** The job, or undefined when unknown or past its retention. */
  find(id: string): Job | undefined {
    const job = this.jobs.get(id);
    if (job && this.clock.now() - job.createdAt > JOB_TIMING.retention) {
      this.jobs.delete(id);
      this.onChange();
      return undefined;
    }
    return job;
  }

  /** Fast clock: move simulated time to the job's next chunk, so one poll processes one chunk. */
  stepFast(job: Job): void {
    if (this.clock.mode === 'fast' && isActive(job)) this.clock.advanceTo(job.nextChunkAt);
  }

  /**
   * One cron tick: every job whose next chunk is due processes one chunk now. Like WordPress
   * cron, a late tick does not backfill missed chunks, so a stalled queue can hit the timeout.
   */
  advance(runWork: JobRunner): void {
    const now = this.clock.now();
    let changed = false;
    for (const job of this.jobs.values()) {
      if (isActive(job) && job.nextChunkAt <= now) {
        this.processChunk(runWork, job, now);
        changed = true;
      }
    }
    if (changed) this.onChange();
  }

  private processChunk(runWork: JobRunner, job: Job, at: number): void {
    job.startedAt ??= at;
    if (at - job.startedAt > JOB_TIMING.timeout) {
      job.status = 'failed';
      job.timedOut = true;
      job.completedAt = at;
      return;
    }
    job.status = 'processing';
    const chunk = job.work.slice(job.processed, job.processed + JOB_TIMING.chunkSize);
    for (const work of chunk) {
      const result = runWork(work, job.type);
      job.updated.push(...result.updated);
      if (result.synced) job.synced = (job.synced ?? 0) + 1;
      job.errors.push(...result.errors);
    }
    job.processed += chunk.length;
    job.nextChunkAt = at + JOB_TIMING.chunkInterval;
    if (job.processed >= job.work.length) {
      job.status = 'completed';
      job.completedAt = at;
    }
  }
}

function isActive(job: Job): boolean {
  return job.status === 'queued' || job.status === 'processing';
}

/** The get-batch-job-status-v1 body (dashboard-facts §3.5). */
export function jobStatusBody(job: Job): Record<string, unknown> {
  const total = job.work.length;
  const body: Record<string, unknown> = {
    job_id: job.job_id,
    type: job.type,
    status: job.status,
    progress: total === 0 ? 100 : Math.floor((job.processed / total) * 100),
    processed: job.processed,
    total,
    succeeded: job.type === 'sync' ? (job.synced ?? 0) : job.updated.length,
    failed: job.errors.length,
    started_at: job.startedAt === null ? null : jobTimestamp(job.startedAt),
    completed_at: job.completedAt === null ? null : jobTimestamp(job.completedAt),
    errors: job.errors,
    job_timed_out: job.timedOut,
  };
  if (job.timedOut) {
    body.job_error_code = 'timeout';
    body.job_error_message = 'The job did not finish within 4 hours.';
  }
  return body;
}
