// Runs TypeScript files with Node 20, which cannot strip types itself: esbuild bundles each file
// (dependencies stay imports) into node_modules/.cache/run-ts, where bare imports still resolve
// against this project's node_modules, and Node runs the result. Used by `npm run bench`,
// `npm run generate` and `npm start`; `bundleTs` is the same step for scripts that import the
// bundle instead (scripts/check-bench.mjs).
//
//   node scripts/run-ts.mjs bench/*.ts [-- args for the scripts]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Bundles one TypeScript file for Node and returns the path of the ES module it wrote. */
export async function bundleTs(file) {
  const outDir = resolve('node_modules', '.cache', 'run-ts');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `${basename(file).replace(/\.[cm]?tsx?$/, '')}.mjs`);
  await build({
    entryPoints: [file],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return outfile;
}

async function main() {
  const separator = process.argv.indexOf('--');
  const files = (separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator)).filter(
    // An unmatched shell glob arrives as the pattern itself.
    (file) => !file.includes('*'),
  );
  const args = separator === -1 ? [] : process.argv.slice(separator + 1);

  if (files.length === 0) {
    console.error('run-ts: no TypeScript file to run (usage: node scripts/run-ts.mjs <file.ts>...)');
    process.exit(1);
  }
  for (const file of files) {
    if (!existsSync(file)) {
      console.error(`run-ts: ${file} does not exist`);
      process.exit(1);
    }
    const outfile = await bundleTs(file);
    console.log(`run-ts: ${file}`);
    const result = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...args], { stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
