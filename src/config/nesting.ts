import { Composer, CST, type Document, Lexer, type LineCounter, Parser, YAMLParseError } from 'yaml';
import { duplicateKeyErrors } from './duplicate-keys.js';
import { LIMITS } from './limits.js';
import type { Pacer } from './pace.js';

/** A limit exceeded while parsing: what, and the source offset of the token that exceeded it. */
export interface TooDeep {
  message: string;
  offset: number;
}

/** A tag (`!!binary`, `!foo`, …) as written, and where. */
export interface TagToken {
  source: string;
  offset: number;
}

/**
 * How far right a line's first node may start, counting indentation and the block indicators
 * before it (`- `, `? `, `: `). A nested block collection always starts further right than its
 * parent, so this bounds block nesting; the format needs a few columns, 4 per allowed level is ample.
 */
const MAX_BLOCK_COLUMN = LIMITS.maxDepth * 4;

const BLOCK_INDICATORS: ReadonlySet<string | null> = new Set([
  'seq-item-ind',
  'explicit-key-ind',
  'map-value-ind',
]);

/** Tokens that neither start a node nor move one right: markers without width, and comments. */
const NEUTRAL: ReadonlySet<string | null> = new Set([
  'byte-order-mark',
  'doc-mode',
  'flow-error-end',
  'comment',
]);

/**
 * Parsing with bounded nesting. The yaml library builds nested collections recursively and, on
 * pathological nesting (millions of `[` or `- - - …`), can exhaust memory in a way no try/catch
 * can stop. So nesting is measured on the lexer's tokens as they stream into the parser, and
 * parsing stops at the token that exceeds a limit, before anything deep is built:
 * - flow nesting by counting `[`/`{` against `]`/`}`;
 * - block nesting by the column where each line's first node starts (MAX_BLOCK_COLUMN).
 * Working on tokens, not raw text, means the content of a scalar (a block scalar's lines, a quoted
 * or plain multi-line string) and comments are never mistaken for structure: the lexer hands over
 * a scalar's whole source as one token. The tags met on the way are collected too, as the
 * document itself keeps no position for them. Otherwise this is `parseDocument` (see yaml's
 * public-api), with one lexing pass. Lexing and parsing give `pacer` a step every 1,024 tokens, so
 * signals are handled during a large file; composing the document is one step, linear in it.
 */
export async function parseBounded(text: string, lineCounter: LineCounter, pacer: Pacer): Promise<Bounded> {
  const scanning = scan(text, lineCounter);
  for (let step = scanning.next(); ; step = scanning.next()) {
    if (step.done) return finish(step.value, text.length);
    await pacer.step();
  }
}

/** parseBounded in one synchronous step, for small texts (a saved plan's positions). */
export function parseBoundedSync(text: string, lineCounter: LineCounter): Bounded {
  const scanning = scan(text, lineCounter);
  for (let step = scanning.next(); ; step = scanning.next()) {
    if (step.done) return finish(step.value, text.length);
  }
}

export type Bounded = { doc: Document.Parsed; tags: TagToken[] } | { tooDeep: TooDeep };

type Scanned = { cst: CST.Token[]; tags: TagToken[] } | { tooDeep: TooDeep };

function finish(scanned: Scanned, length: number): Bounded {
  return 'tooDeep' in scanned ? scanned : { doc: compose(scanned.cst, length), tags: scanned.tags };
}

/**
 * Lexes and parses with the nesting checks; yields (nothing) every 1,024 tokens so a caller can
 * let the event loop run, and returns the parser's top-level tokens (a whole document is one).
 */
function* scan(text: string, lineCounter: LineCounter): Generator<void, Scanned, void> {
  const tags: TagToken[] = [];
  const parser = new Parser(lineCounter.addNewLine);
  const cst: CST.Token[] = [];
  lineCounter.addNewLine(0);
  let flowDepth = 0;
  // As the parser measures indentation (Parser#next): spaces and block indicators at a line's start.
  let atLineStart = true;
  let column = 0;
  let scalarSourceNext = false;
  let count = 0;
  for (const lexeme of new Lexer().lex(text)) {
    // Invariant: the parser has taken every earlier token, so its offset is this token's.
    const offset = parser.offset;
    const type: CST.TokenType | 'scalar-source' | null = scalarSourceNext
      ? 'scalar-source'
      : CST.tokenType(lexeme);
    // A scalar marker is followed by the scalar's whole source: content, never structure.
    scalarSourceNext = type === 'scalar';
    if (type === 'newline') {
      atLineStart = true;
      column = 0;
    } else if (type === 'space') {
      if (atLineStart && lexeme[0] === ' ') column += lexeme.length;
    } else if (atLineStart && !NEUTRAL.has(type)) {
      if (BLOCK_INDICATORS.has(type)) column += lexeme.length;
      // Node properties do not end the count: `- &a - &a …` nests as deep as `- - …` would.
      else if (type !== 'anchor' && type !== 'tag') atLineStart = false;
      if (column > MAX_BLOCK_COLUMN) {
        const message = `a line is indented more than ${MAX_BLOCK_COLUMN} columns deep (spaces and \`-\`, \`?\`, \`:\` indicators)`;
        return { tooDeep: { message, offset } };
      }
    }
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      if (++flowDepth > LIMITS.maxDepth) {
        const message = `flow collections ([…], {…}) nest more than ${LIMITS.maxDepth} levels deep`;
        return { tooDeep: { message, offset } };
      }
    } else if (type === 'flow-seq-end' || type === 'flow-map-end') {
      flowDepth = Math.max(0, flowDepth - 1);
    } else if (type === 'tag') {
      tags.push({ source: lexeme, offset });
    }
    for (const token of parser.next(lexeme)) cst.push(token);
    if (++count % 1024 === 0) yield;
  }
  for (const token of parser.end()) cst.push(token);
  return { cst, tags };
}

/**
 * The first document of the parser's tokens (the library's `Composer#compose` with forceDoc);
 * a second document is an error on the first. One synchronous step per document, linear in it.
 */
function compose(cst: readonly CST.Token[], length: number): Document.Parsed {
  // The library's own duplicate check compares each key with every earlier key of its mapping
  // (quadratic: a mapping of 40,000 groups took minutes); duplicateKeyErrors does it in one pass.
  const composer = new Composer({ prettyErrors: false, uniqueKeys: false });
  let doc: Document.Parsed | undefined;
  let extra: Document.Parsed | undefined;
  const take = (next: Document.Parsed) => {
    if (!doc) doc = next;
    else extra ??= next;
  };
  for (const token of cst) {
    for (const next of composer.next(token)) take(next);
    if (extra) break;
  }
  if (!extra) for (const next of composer.end(true, length)) take(next);
  if (extra) {
    const message = 'Source contains multiple documents';
    doc!.errors.push(new YAMLParseError([extra.range[0], extra.range[1]], 'MULTIPLE_DOCS', message));
  }
  // end(forceDoc = true) always yields a document, even for empty input.
  for (const error of duplicateKeyErrors(doc!.contents)) doc!.errors.push(error);
  return doc!;
}
