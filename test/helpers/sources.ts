/**
 * The library's own sources, for tests that read them as text or syntax (rules no type checks:
 * one store base, one table of error codes).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The `src/` folder of the repository. */
export const SRC = join(import.meta.dirname, '../../src');

/** Every TypeScript file under `dir` (default `src/`), generated files left out. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.generated.'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
