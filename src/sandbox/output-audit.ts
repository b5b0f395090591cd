import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { AbilityInfo } from './abilities/ability-info.js';
import type { Reply } from './http-util.js';

/** One place where an answer does not match the output schema its profile published. */
export interface OutputMismatch {
  profile: string;
  ability: string;
  /** JSON pointer into the answer. */
  path: string;
  message: string;
  /** Set when the mismatch is what the shipped dashboard itself sends, with the fact cited. */
  cited?: string;
}

/** Where audit results go: the in-memory list of a test, or the files of a suite run. */
export interface AuditSink {
  checked(profile: string, ability: string): void;
  mismatch(mismatch: OutputMismatch): void;
}

/**
 * What the shipped dashboard itself sends against its schema, so the sandbox reproduces it: each
 * patch rewrites such places of a copy of the answer into valid values and says how many it
 * rewrote. WordPress's schema validator does not check `format: uri`, so these pass its output
 * check and reach clients.
 */
const CITED: ReadonlyArray<{ patch: (answer: Record<string, unknown>) => number; fact: string }> = [
  {
    patch: (answer) => {
      let patched = 0;
      for (const item of Array.isArray(answer.errors) ? answer.errors : []) {
        if (item?.site_id === 0 && typeof item.site_url === 'string' && !/^https?:\/\//.test(item.site_url)) {
          item.site_url = 'https://identifier-as-sent.invalid/';
          patched += 1;
        }
      }
      return patched;
    },
    fact: 'dashboard-facts §3.3: resolution and access errors carry site_id 0 and site_url as sent (an ID or a domain); WordPress does not check format uri',
  },
  {
    patch: (answer) => encodeNonAscii(answer),
    fact: 'the dashboard sends site URLs as stored, an internationalised host unencoded; WordPress does not check format uri',
  },
];

/** Percent-encodes every http(s) URL with non-ASCII characters in place; returns how many. */
function encodeNonAscii(node: unknown): number {
  if (typeof node !== 'object' || node === null) return 0;
  let patched = 0;
  const record = node as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (typeof value === 'string' && /^https?:\/\//.test(value) && /[^\x00-\x7f]/.test(value)) {
      record[key] = encodeURI(value);
      patched += 1;
    } else patched += encodeNonAscii(value);
  }
  return patched;
}

/**
 * Checks every successful ability answer against the output schema the profile published, with
 * a full JSON Schema validator (stricter than WordPress's: formats and `const` are checked too).
 * Turned on by tests (`SandboxOptions.outputAudit`, or `SVC_SANDBOX_OUTPUT_AUDIT=<dir>`).
 */
export class OutputAudit {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<AbilityInfo, ValidateFunction>();

  constructor(
    private readonly profile: string,
    private readonly sink: AuditSink,
  ) {
    addFormats.default(this.ajv);
  }

  check(ability: AbilityInfo, reply: Reply): void {
    if (reply.status !== 200) return;
    let validate = this.compiled.get(ability);
    if (!validate) {
      validate = this.ajv.compile(ability.output);
      this.compiled.set(ability, validate);
    }
    const answer: unknown = reply.json === undefined ? reply.body : JSON.parse(reply.json.toString());
    this.sink.checked(this.profile, ability.name);
    if (validate(answer)) return;
    // Rewrite the cited shipped deviations in a copy: if that copy passes, only cited ones remain.
    const copy = structuredClone(answer) as Record<string, unknown>;
    const cited = typeof copy === 'object' && copy !== null ? CITED.filter((c) => c.patch(copy) > 0) : [];
    if (cited.length > 0 && validate(copy)) {
      for (const c of cited)
        this.sink.mismatch({
          profile: this.profile,
          ability: ability.name,
          path: '/errors',
          message: 'cited',
          cited: c.fact,
        });
      return;
    }
    for (const error of validate.errors ?? []) {
      this.sink.mismatch({
        profile: this.profile,
        ability: ability.name,
        path: error.instancePath || '/',
        message: `${error.message ?? error.keyword}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
      });
    }
  }
}

/** In memory, for a test that inspects the results. */
export class MemoryAuditSink implements AuditSink {
  readonly mismatches: OutputMismatch[] = [];
  readonly counts = new Map<string, number>();
  checked(profile: string, ability: string): void {
    const key = `${profile} ${ability}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  mismatch(mismatch: OutputMismatch): void {
    this.mismatches.push(mismatch);
  }
}

/**
 * JSON lines in `<dir>/<pid>.jsonl`, one per checked answer (`{profile, ability}`, plus
 * `mismatch` when it failed), so a suite-wide check can read what every process saw.
 */
export class FileAuditSink implements AuditSink {
  private readonly file: string;
  constructor(dir: string) {
    this.file = join(dir, `${process.pid}.jsonl`);
  }
  checked(profile: string, ability: string): void {
    appendFileSync(this.file, `${JSON.stringify({ profile, ability })}\n`);
  }
  mismatch(mismatch: OutputMismatch): void {
    appendFileSync(
      this.file,
      `${JSON.stringify({ profile: mismatch.profile, ability: mismatch.ability, mismatch })}\n`,
    );
  }
}
