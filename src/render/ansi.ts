/**
 * ANSI styling that is a no-op when colour is off. Whether colour is on (a TTY and no
 * NO_COLOR) is the CLI's decision; renderers only take the flag.
 */

export interface Styles {
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string): string => text;

export function styles(colour: boolean): Styles {
  if (!colour) return { green: plain, red: plain, yellow: plain, bold: plain, dim: plain };
  return {
    green: wrap(32, 39),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    bold: wrap(1, 22),
    dim: wrap(2, 22),
  };
}
