import { Composer, type Document, Lexer, type LineCounter, Parser, YAMLParseError } from 'yaml';
import { LIMITS } from './limits.js';

/**
 * Parsing with bounded nesting. The yaml library builds nested collections recursively and, on
 * pathological nesting (millions of `[` or `- - - …`), can exhaust memory in a way no try/catch
 * can stop. So flow nesting is counted on the lexer's tokens as they stream into the parser and
 * parsing stops at the limit, before anything deep is built; block nesting is bounded beforehand
 * by how far lines are indented (a nested block collection always starts further right).
 * Otherwise this is `parseDocument` (see yaml's public-api), with one lexing pass.
 */
export function parseBounded(
  text: string,
  lineCounter: LineCounter,
): { doc: Document.Parsed } | { tooDeep: string } {
  const column = deepestIndent(text);
  if (column > LIMITS.maxDepth * 4) {
    return {
      tooDeep: `a line is indented ${column} columns deep; at most ${LIMITS.maxDepth * 4} are accepted`,
    };
  }
  let tooDeep = false;
  const parser = new Parser(lineCounter.addNewLine);
  function* tokens() {
    lineCounter.addNewLine(0);
    let depth = 0;
    for (const lexeme of new Lexer().lex(text)) {
      if (lexeme === '[' || lexeme === '{') {
        if (++depth > LIMITS.maxDepth) {
          tooDeep = true;
          return;
        }
      } else if (lexeme === ']' || lexeme === '}') depth = Math.max(0, depth - 1);
      yield* parser.next(lexeme);
    }
    yield* parser.end();
  }
  const composer = new Composer({ prettyErrors: false, uniqueKeys: true });
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens(), true, text.length)) {
    if (!doc) doc = next;
    else {
      const message = 'Source contains multiple documents';
      doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', message));
      break;
    }
  }
  if (tooDeep) {
    return { tooDeep: `flow collections ([…], {…}) nest more than ${LIMITS.maxDepth} levels deep` };
  }
  // compose(…, forceDoc = true) always yields a document, even for empty input.
  return { doc: doc! };
}

/** The widest run of indentation and block indicators (`- `, `? `, `: `) at the start of any line. */
function deepestIndent(text: string): number {
  let max = 0;
  let lineStart = 0;
  while (lineStart < text.length) {
    let i = lineStart;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      // space, tab, '-', '?', ':'
      if (c !== 0x20 && c !== 0x09 && c !== 0x2d && c !== 0x3f && c !== 0x3a) break;
      i++;
    }
    max = Math.max(max, i - lineStart);
    const next = text.indexOf('\n', i);
    if (next < 0) break;
    lineStart = next + 1;
  }
  return max;
}
