import { fileURLToPath } from 'node:url';

/**
 * The absolute path of a file the package ships (`examples/…`, `schemas/…`). Every module that
 * reads a package file does so relative to its own file from exactly two levels below the package
 * root (`src/<module>/`, `dist/<module>/`), so the bundles, which sit at that depth too
 * (`dist/bin/`, `action/dist/`), find the same files.
 */
export function packageFile(path: string): string {
  return fileURLToPath(new URL(`../../${path}`, import.meta.url));
}
