import type * as nodeFs from 'node:fs';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { appendStepSummary, STEP_SUMMARY_LIMIT_BYTES } from '../../src/github/index.js';

function volume(files: Record<string, string> = {}) {
  return Volume.fromJSON(files) as unknown as typeof nodeFs;
}

describe('step summary', () => {
  it('appends to the file, creating it when missing', () => {
    const fs = volume({ '/run/': null as unknown as string });
    appendStepSummary(fs, '/run/summary.md', '## plan A');
    appendStepSummary(fs, '/run/summary.md', '## plan B\n');
    expect(fs.readFileSync('/run/summary.md', 'utf8')).toBe('## plan A\n## plan B\n');
  });

  it('keeps the file within 1 MiB, counting what earlier steps wrote', () => {
    const fs = volume({ '/s.md': 'x'.repeat(STEP_SUMMARY_LIMIT_BYTES - 10_000) });
    const result = appendStepSummary(fs, '/s.md', 'a plan line\n'.repeat(5000));
    expect(result.truncated).toBe(true);
    const size = fs.statSync('/s.md').size;
    expect(size).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT_BYTES);
    expect(size).toBeGreaterThan(STEP_SUMMARY_LIMIT_BYTES - 1000);
    expect(String(fs.readFileSync('/s.md', 'utf8'))).toContain('Cut to fit the 1 MiB step-summary limit');
  });

  it('counts bytes of UTF-8, not characters, and never splits a character', () => {
    const fs = volume();
    appendStepSummary(fs, '/s.md', '€'.repeat(100), 101);
    const text = String(fs.readFileSync('/s.md', 'utf8'));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(101);
    expect(text).not.toContain('\uFFFD');
    expect(text.startsWith('€')).toBe(true);
  });

  it('writes nothing when the summary is already full', () => {
    const fs = volume({ '/s.md': 'x'.repeat(100) });
    expect(appendStepSummary(fs, '/s.md', 'more', 100)).toEqual({ writtenBytes: 0, truncated: true });
    expect(fs.statSync('/s.md').size).toBe(100);
  });

  it('reports an unwritable summary as IO_ERROR', () => {
    expect(() => appendStepSummary(volume(), '/missing-dir/s.md', 'x')).toThrow(
      expect.objectContaining({ code: 'IO_ERROR' }),
    );
  });
});
