/**
 * A streaming splitter of one top-level JSON object whose values are objects (the Wordfence
 * feed: `{"<id>": {record}, …}`, ~160 MB): bytes go in chunk by chunk, each record's bytes are
 * cut out and JSON.parsed on their own, so memory holds one record at a time, never the document.
 *
 * The splitter checks the document's frame itself (the braces, keys, colons and commas between
 * records, and nothing but whitespace after the end) and leaves each record's inside to
 * JSON.parse. A document that ends early, or holds anything else, is an error naming the byte
 * offset: the caller refuses the whole feed, never a part of it.
 */

enum State {
  BeforeOpen,
  AfterOpen,
  Key,
  AfterKey,
  BeforeValue,
  Value,
  AfterValue,
  ExpectKey,
  Done,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Where and why the document is not one object of records. */
export class SplitError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export interface Splitter {
  push(chunk: Uint8Array): void;
  /** Throws when the document did not end with its closing brace. */
  end(): void;
  /** Bytes consumed so far. */
  readonly offset: number;
}

/** A record larger than this is refused: no record of the real feed comes near it. */
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

function describe(byte: number): string {
  return byte >= 0x21 && byte <= 0x7e ? `\`${String.fromCharCode(byte)}\`` : `byte 0x${byte.toString(16)}`;
}

export function createSplitter(onRecord: (record: unknown, offset: number) => void): Splitter {
  let state = State.BeforeOpen;
  let offset = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: Uint8Array[] = [];
  let recordBytes = 0;
  let recordStart = 0;

  const fail = (message: string, at: number): never => {
    throw new SplitError(message, at);
  };

  const emit = () => {
    const text = Buffer.concat(parts).toString('utf8');
    parts = [];
    recordBytes = 0;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      fail(`the record starting here is not valid JSON (${(error as Error).message})`, recordStart);
    }
    onRecord(record, recordStart);
  };

  /** Scans a record's bytes from `i`; returns the index after its closing brace, or -1. */
  const scanValue = (chunk: Uint8Array, i: number): number => {
    for (; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  };

  const push = (chunk: Uint8Array) => {
    let i = 0;
    while (i < chunk.length) {
      if (state === State.Value) {
        const end = scanValue(chunk, i);
        const piece = chunk.subarray(i, end === -1 ? chunk.length : end);
        recordBytes += piece.length;
        if (recordBytes > MAX_RECORD_BYTES)
          fail(`a record larger than ${MAX_RECORD_BYTES} bytes starts here`, recordStart);
        // Copied: the caller may reuse its chunk once push returns.
        parts.push(end === -1 ? Buffer.from(piece) : piece);
        if (end === -1) break;
        i = end;
        state = State.AfterValue;
        emit();
        continue;
      }
      const byte = chunk[i]!;
      const at = offset + i;
      if (state === State.Key) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) state = State.AfterKey;
        i++;
        continue;
      }
      i++;
      if (isSpace(byte)) continue;
      switch (state) {
        case State.BeforeOpen:
          if (byte !== OPEN_BRACE) fail(`expected \`{\` to open the feed, found ${describe(byte)}`, at);
          state = State.AfterOpen;
          break;
        case State.AfterOpen:
          if (byte === CLOSE_BRACE) state = State.Done;
          else if (byte === QUOTE) state = State.Key;
          else fail(`expected a record id or \`}\`, found ${describe(byte)}`, at);
          break;
        case State.ExpectKey:
          if (byte !== QUOTE) fail(`expected a record id after \`,\`, found ${describe(byte)}`, at);
          state = State.Key;
          break;
        case State.AfterKey:
          if (byte !== COLON) fail(`expected \`:\` after a record id, found ${describe(byte)}`, at);
          state = State.BeforeValue;
          break;
        case State.BeforeValue:
          if (byte !== OPEN_BRACE) fail(`expected a record (an object), found ${describe(byte)}`, at);
          state = State.Value;
          depth = 0;
          inString = false;
          escaped = false;
          recordStart = at;
          i--; // the record's own bytes start with its brace
          break;
        case State.AfterValue:
          if (byte === COMMA) state = State.ExpectKey;
          else if (byte === CLOSE_BRACE) state = State.Done;
          else fail(`expected \`,\` or \`}\` after a record, found ${describe(byte)}`, at);
          break;
        case State.Done:
          fail(`unexpected ${describe(byte)} after the end of the feed`, at);
      }
    }
    offset += chunk.length;
  };

  return {
    push,
    end() {
      if (state === State.Done) return;
      const where =
        state === State.Value
          ? `inside the record that starts at byte ${recordStart}`
          : state === State.BeforeOpen
            ? 'before it began (empty)'
            : 'before its closing `}`';
      fail(`the feed ends at byte ${offset} ${where}: truncated`, offset);
    },
    get offset() {
      return offset;
    },
  };
}
