import { marked, type Token } from 'marked';

/** A markdown document as GitHub's flavour reads it: its tables and sections, and what is broken. */
export interface MarkdownStructure {
  /** Each section (a heading, a `<details>` block or the text before the first) and its tables. */
  sections: Array<{ title: string; tables: number }>;
  tables: number;
  /** A table row whose cells differ in number from its header's, or a line that looks like a row outside a table. */
  problems: string[];
}

/**
 * Lexes `markdown` with marked (GitHub-flavoured: tables, HTML blocks). The lexer pads or cuts a
 * row to its header's width, so rows are counted from their raw lines: every pipe a renderer
 * of ours writes inside a cell is escaped (`&#124;`, `%7C`), so a raw `|` is a cell border.
 */
export function markdownStructure(markdown: string): MarkdownStructure {
  const tokens = marked.lexer(markdown, { gfm: true });
  const sections: MarkdownStructure['sections'] = [{ title: '(top)', tables: 0 }];
  const problems: string[] = [];
  let tables = 0;
  const visit = (token: Token) => {
    if (token.type === 'heading') sections.push({ title: token.text, tables: 0 });
    else if (token.type === 'html' && /<summary>/.test(token.raw))
      sections.push({ title: /<summary>(.*?)<\/summary>/.exec(token.raw)?.[1] ?? 'details', tables: 0 });
    else if (token.type === 'table') {
      tables += 1;
      sections[sections.length - 1]!.tables += 1;
      const [header, , ...rows] = token.raw.trimEnd().split('\n');
      const width = cells(header!);
      for (const row of rows)
        if (!/^\|.*\|$/.test(row) || cells(row) !== width) problems.push(`broken row: ${row}`);
    } else if (token.type === 'paragraph' && /^\|/m.test(token.raw))
      problems.push(`row outside a table: ${token.raw}`);
  };
  for (const token of tokens) visit(token);
  return { sections, tables, problems };
}

function cells(row: string): number {
  return (row.match(/\|/g)?.length ?? 0) - 1;
}
