// Installs the package into the examples as npm installs it for a partner: `npm pack` (the files
// of `files`, the `exports` map), extracted into examples/node_modules/@service/react. The examples
// then import `@service/react` by its name, and their bundlers (Next.js, Vite) and TypeScript
// resolve it through `exports` to `dist/`, as in a partner's app; what the package needs (React,
// valibot, the chart packages, Next.js and Vite themselves) resolves from this repository's
// node_modules above, so there is one React and no second install. Run after `npm run build`.
//
// Why not a path alias to `dist/` or `src/`: it would skip `exports` and `files`, so an entry
// that works here and is missing from the published package would pass. Why not a `file:`
// dependency installed in each example: a second node_modules per example means a second React
// and minutes of installing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the examples find `@service/react`. */
export const EXAMPLES_PACKAGE = join('examples', 'node_modules', '@service', 'react');

/**
 * Packs the package and extracts it into {@link EXAMPLES_PACKAGE}, replacing what was there.
 * @returns {{ sha256: string }} the hash of the tarball, which changes whenever its content does
 */
export function installExamplesPackage() {
  if (!existsSync(join('dist', 'index.js'))) throw new Error('install-examples: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'service-react-examples-'));
  try {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { encoding: 'utf8' }),
    );
    const tarball = join(dir, packed.filename);
    rmSync(EXAMPLES_PACKAGE, { recursive: true, force: true });
    mkdirSync(EXAMPLES_PACKAGE, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', EXAMPLES_PACKAGE, '--strip-components=1']);
    // Not npm's `shasum` of the gzip: the content's hash, so that a rebuild of the same sources matches.
    const sha256 = createHash('sha256');
    for (const file of packed.files.map((entry) => entry.path).sort()) {
      sha256.update(file);
      sha256.update(readFileSync(join(EXAMPLES_PACKAGE, file)));
    }
    return { sha256: sha256.digest('hex') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { sha256 } = installExamplesPackage();
  console.log(`install-examples: ${EXAMPLES_PACKAGE} (content ${sha256.slice(0, 12)})`);
}
