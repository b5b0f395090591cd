import { describe, expect, it } from 'vitest';
import { createReadProgressPrinter, formatReadProgress } from '../src/cli/read-progress.js';

function stream(isTTY: boolean) {
  const out = { text: '', isTTY, write: (s: string) => (out.text += s) };
  return out;
}

describe('progress while reading the dashboard', () => {
  it('says sites listed, requests done of needed, rate and ETA', () => {
    expect(formatReadProgress({ done: 100, total: 400, sites: 5000 }, 10_000)).toBe(
      'reading: 5000 sites listed, 100/400 requests (25%), 10 requests/s, ETA 30s',
    );
    expect(formatReadProgress({ done: 3, total: undefined, sites: 300 }, 1000)).toBe(
      'reading: 300 sites listed, 3 requests, 3 requests/s',
    );
  });

  it('prints a plain line every 10 s off a terminal, nothing for a short read', () => {
    let now = 0;
    const out = stream(false);
    const printer = createReadProgressPrinter(out, () => now);
    for (let i = 1; i <= 50; i++) {
      now = i * 100;
      printer.onProgress({ done: i, total: 400, sites: i * 100 });
    }
    expect(out.text).toBe(''); // 5 s in
    for (let i = 51; i <= 250; i++) {
      now = i * 100;
      printer.onProgress({ done: i, total: 400, sites: 10_000 });
    }
    expect(out.text.split('\n').filter(Boolean)).toHaveLength(2); // at 10 s and 20 s
    printer.finish();
  });

  it('redraws one live line at a terminal and clears it at the end; --quiet prints nothing', () => {
    let now = 0;
    const tty = stream(true);
    const printer = createReadProgressPrinter(tty, () => now);
    now = 200;
    printer.onProgress({ done: 2, total: 10, sites: 100 });
    now = 400;
    printer.onProgress({ done: 4, total: 10, sites: 200 });
    printer.finish();
    expect(tty.text.match(/\r\u001b\[2K/g)).toHaveLength(3);
    expect(tty.text).not.toContain('\n');
    const quiet = stream(true);
    const silent = createReadProgressPrinter(quiet, () => now, { quiet: true });
    now = 10_000;
    silent.onProgress({ done: 4, total: 10, sites: 200 });
    silent.finish();
    expect(quiet.text).toBe('');
  });

  it('shows the latest state on its timer while nothing is answered, at a rate within the limit', () => {
    let now = 0;
    let tick: (() => void) | undefined;
    const every = (_ms: number, t: () => void) => {
      tick = t;
      return () => {
        tick = undefined;
      };
    };
    // A limit of 60 a minute lets 60 requests through in the first 100 ms, then waits.
    const out = stream(false);
    const printer = createReadProgressPrinter(out, () => now, { rateLimit: 60, every });
    now = 100;
    printer.onProgress({ done: 60, total: 300, sites: 3000 });
    for (let second = 1; second <= 30; second++) {
      now = second * 1000;
      tick?.();
    }
    const lines = out.text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(3); // at 10, 20 and 30 s
    for (const line of lines)
      expect(line).toMatch(/^reading: 3000 sites listed, 60\/300 requests \(20%\), 1 requests\/s, ETA 4m/);
    printer.finish();
    expect(tick).toBeUndefined();

    // At a terminal, the line drawn right after the burst: not 600 requests/s.
    const tty = stream(true);
    now = 0;
    const live = createReadProgressPrinter(tty, () => now, { rateLimit: 60, every });
    now = 116;
    live.onProgress({ done: 60, total: 300, sites: 3000 });
    expect(tty.text).toContain('60/300 requests (20%), 1 requests/s');
    live.finish();
  });

  it('without a rate limit the rate is the requests answered per second since the read began', () => {
    expect(formatReadProgress({ done: 60, total: 300, sites: 3000 }, 30_000)).toContain(', 2 requests/s,');
    expect(formatReadProgress({ done: 60, total: 300, sites: 3000 }, 30_000, 60)).toContain(
      ', 1 requests/s,',
    );
    expect(formatReadProgress({ done: 15, total: 300, sites: 3000 }, 30_000, 60)).toContain(
      ', 0.5 requests/s,',
    );
  });
});
