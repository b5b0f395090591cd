import type { ReadLiveOptions } from '../client.js';

export interface ReadProgressTracker {
  /** `stage` needs `requests` more requests; `add` for one of several pieces of a stage. */
  expect(stage: string, requests: number, add?: boolean): void;
  /** One request of `stage` was answered. */
  done(stage: string): void;
  addSites(count: number): void;
}

/**
 * Sums the requests of the listings read side by side. The total is reported once every stage
 * has said how many requests it needs (a paged listing knows after its first page).
 */
export function createReadProgress(
  report: ReadLiveOptions['onProgress'],
  stages: readonly string[],
): ReadProgressTracker {
  const expected = new Map<string, number>();
  let done = 0;
  let sites = 0;
  const emit = () => {
    if (!report) return;
    let total: number | undefined = 0;
    for (const stage of stages) {
      const n = expected.get(stage);
      if (n === undefined) {
        total = undefined;
        break;
      }
      total += n;
    }
    report({ done, total: total === undefined ? undefined : Math.max(total, done), sites });
  };
  return {
    expect(stage, requests, add = false) {
      expected.set(stage, (add ? (expected.get(stage) ?? 0) : 0) + requests);
    },
    done() {
      done++;
      emit();
    },
    addSites(count) {
      sites += count;
    },
  };
}
