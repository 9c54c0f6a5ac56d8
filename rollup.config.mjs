// Builds every entry of the package whose `index.ts` exists, as ESM (`.js`), CommonJS (`.cjs`)
// and declarations (`.d.ts` for import, `.d.cts` for require), and copies the stylesheet.
//
// All entries go through one rollup graph per format, so code that two entries share (the core,
// its errors) exists once in dist: `@service/react` and `@service/react/core` hand out the same
// classes and stores. Shared chunks hold only framework-free code (the layer rules guarantee that
// React never reaches core, server or emulator), so the `'use client'` banner goes on the React
// entry alone.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname } from 'node:path';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/**
 * Entry name (the folder in dist and the subpath after `@service/react/`) to source file, and
 * whether it is the React entry that gets `'use client'`. `index` is the root entry.
 */
const ALL_ENTRIES = [
  { name: 'index', input: 'src/index.ts', client: true },
  { name: 'core/index', input: 'src/core/index.ts', client: false },
  { name: 'server/index', input: 'src/server/index.ts', client: false },
  { name: 'emulator/index', input: 'src/emulator/index.ts', client: false },
  { name: 'testing/index', input: 'src/testing/index.ts', client: false },
];

/** Only entries that exist are built; `scripts/check-package.mjs` keeps `exports` in step. */
export const entries = ALL_ENTRIES.filter((entry) => existsSync(entry.input));

const input = Object.fromEntries(entries.map((entry) => [entry.name, entry.input]));

/**
 * Executables of the package's `bin`: ESM only, built in the same graph as the entries so they
 * share the emulator's code instead of copying it, and started with a shebang.
 */
const BINS = [{ name: 'emulator/cli', input: 'src/emulator/cli.ts' }].filter((bin) => existsSync(bin.input));
const binNames = new Set(BINS.map((bin) => bin.name));
const clientEntries = new Set(entries.filter((entry) => entry.client).map((entry) => entry.name));

const externalNames = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...Object.keys(pkg.optionalDependencies ?? {}),
];

/** Dependencies, peers (with any subpath: `react/jsx-runtime`) and Node builtins stay imports. */
function external(id) {
  if (id.startsWith('node:') || builtinModules.includes(id)) return true;
  return externalNames.some((name) => id === name || id.startsWith(`${name}/`));
}

/**
 * `'use client'` marks the React entry as a client boundary for React Server Components. It must
 * be the first statement of the chunk, which only a banner guarantees (rollup drops module-level
 * directives from sources).
 */
function banner(chunk) {
  if (chunk.isEntry && binNames.has(chunk.name)) return '#!/usr/bin/env node';
  return chunk.isEntry && clientEntries.has(chunk.name) ? "'use client';" : '';
}

function onwarn(warning) {
  // Any other warning (circular imports, unresolved imports) is a build defect: fail on it.
  throw new Error(`rollup: ${warning.message}`);
}

/** Copies `src/styles.css` to `dist/styles.css` (`@service/react/styles.css`). */
function copyStyles() {
  return {
    name: 'copy-styles',
    writeBundle() {
      const target = 'dist/styles.css';
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync('src/styles.css', target);
    },
  };
}

/**
 * Every entry is built twice, for the two conditions of `exports`: `dist/` for `production` and
 * `default` (what Node, edge runtimes, a page without a bundler and production builds load) and
 * `dist/development/` for `development` (Vite, webpack and Next.js in development), with
 * `process.env.NODE_ENV` written in as text. So the development details of a problem ("expected
 * a BCP-47 tag, got ...") reach a developer's console, production bundles carry none, and no file
 * of the package reads `process`: it runs where there is none.
 */
const MODES = {
  production: { dir: 'dist', bins: true },
  development: { dir: 'dist/development', bins: false },
};

const code = (format, extension, mode) => ({
  input:
    format === 'es' && MODES[mode].bins
      ? { ...input, ...Object.fromEntries(BINS.map((bin) => [bin.name, bin.input])) }
      : input,
  external,
  onwarn,
  plugins: [
    esbuild({
      target: 'es2022',
      tsconfig: 'tsconfig.json',
      jsx: 'automatic',
      // Consumers' bundlers minify; readable dist makes stack traces and audits easy.
      minify: false,
      sourceMap: true,
      define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    }),
    format === 'es' && mode === 'production' ? copyStyles() : undefined,
  ],
  output: {
    dir: MODES[mode].dir,
    format,
    entryFileNames: `[name].${extension}`,
    // Chunks loaded with import() (the chart runtime) in a folder of their own, so size budgets
    // can tell code loaded on demand from code every import pulls in.
    chunkFileNames: (chunk) => `${chunk.isDynamicEntry ? '_lazy' : '_chunks'}/[name]-[hash].${extension}`,
    banner,
    sourcemap: true,
    // Named exports only, so `require('@service/react/core').createChatClient` works.
    exports: 'named',
    // Keeps `import()` of optional peers (vega-embed) lazy in both formats.
    dynamicImportInCjs: true,
    generatedCode: 'es2015',
  },
});

const types = (extension) => ({
  input,
  external,
  onwarn,
  plugins: [dts({ tsconfig: 'tsconfig.json', compilerOptions: { noEmit: false } })],
  output: {
    dir: 'dist',
    format: 'es',
    entryFileNames: `[name].${extension}`,
    chunkFileNames: `_chunks/[name]-[hash].${extension}`,
  },
});

export default [
  code('es', 'js', 'production'),
  code('cjs', 'cjs', 'production'),
  code('es', 'js', 'development'),
  code('cjs', 'cjs', 'development'),
  types('d.ts'),
  types('d.cts'),
];
