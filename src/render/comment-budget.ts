import { SvcError } from '../errors.js';

/**
 * GitHub rejects issue and comment bodies of 65,536 characters or more (422). Bodies are cut
 * below that, measured in UTF-16 code units (never fewer than GitHub's count), keeping the head
 * (marker, title) and tail (artifact link) whole and cutting only the middle at a line break,
 * then closing any code fence or <details> the cut left open so the rest still renders.
 */
export const GITHUB_BODY_LIMIT = 65_536;
export const DEFAULT_BODY_BUDGET = 65_000;

export interface BodyParts {
  head: string;
  main: string;
  tail: string;
}

export interface CappedBody {
  body: string;
  truncated: boolean;
  omittedChars: number;
}

const DEFAULT_NOTE = (omitted: number) =>
  `> [!WARNING]\n> ${omitted.toLocaleString('en-US')} characters were cut to fit GitHub's comment limit; the full plan is in the JSON artifact linked below.\n`;

export function capBody(
  parts: BodyParts,
  options: { budget?: number; note?: (omittedChars: number) => string } = {},
): CappedBody {
  const budget = Math.min(options.budget ?? DEFAULT_BODY_BUDGET, GITHUB_BODY_LIMIT - 1);
  const whole = parts.head + parts.main + parts.tail;
  if (whole.length <= budget) return { body: whole, truncated: false, omittedChars: 0 };

  const note = options.note ?? DEFAULT_NOTE;
  // The note's length depends on the number it prints; reserve for the widest number and closers.
  const reserve = note(parts.main.length).length + 200;
  const room = budget - parts.head.length - parts.tail.length - reserve;
  if (room < 0) {
    throw new SvcError('INTERNAL', `comment head and tail alone exceed the ${budget}-character budget`);
  }
  let kept = cutAtLineBreak(parts.main, room);
  kept += closers(kept);
  const omitted = parts.main.length - cutAtLineBreak(parts.main, room).length;
  const body = `${parts.head}${kept}\n\n${note(omitted)}${parts.tail}`;
  return { body, truncated: true, omittedChars: omitted };
}

function cutAtLineBreak(text: string, room: number): string {
  let end = Math.min(room, text.length);
  const lineEnd = text.lastIndexOf('\n', end);
  if (lineEnd > 0) end = lineEnd;
  // Never split a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** Markup that closes what the cut left open: a ``` fence and unclosed <details> blocks. */
function closers(kept: string): string {
  let out = '';
  const fences = kept.match(/^\s*```/gm)?.length ?? 0;
  if (fences % 2 === 1) out += '\n```';
  const opened = kept.match(/<details\b/gi)?.length ?? 0;
  const closed = kept.match(/<\/details>/gi)?.length ?? 0;
  for (let i = closed; i < opened; i += 1) out += '\n</details>';
  return out;
}
