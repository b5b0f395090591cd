import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputMismatch } from '../../src/sandbox/index.js';

export interface AuditFiles {
  /** Answers checked per profile. */
  checked: Record<string, number>;
  mismatches: OutputMismatch[];
}

/** Reads the JSON lines the sandboxes' FileAuditSink wrote (one file per process). */
export function readAudit(dir: string, only?: { file: string; from: number }): AuditFiles {
  const result: AuditFiles = { checked: {}, mismatches: [] };
  const files = only ? [only.file] : readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(dir, file), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.slice(only?.from ?? 0).split('\n')) {
      if (line === '') continue;
      const record = JSON.parse(line) as { profile: string; mismatch?: OutputMismatch };
      if (record.mismatch) result.mismatches.push(record.mismatch);
      else result.checked[record.profile] = (result.checked[record.profile] ?? 0) + 1;
    }
  }
  return result;
}

export function uncitedLines(mismatches: readonly OutputMismatch[]): string[] {
  const seen = new Set<string>();
  for (const m of mismatches) if (!m.cited) seen.add(`  ${m.profile} ${m.ability} ${m.path}: ${m.message}`);
  return [...seen].sort();
}
