/** The value after `--name` on the benchmark's command line, if given. */
export function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The value after `--name`, or `fallback` when it is not given. */
export function argumentOr(name: string, fallback: string): string {
  return argument(name) ?? fallback;
}
