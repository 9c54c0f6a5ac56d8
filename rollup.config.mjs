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
 * Views that a component loads with `import()` although the React entry also exports them: the
 * chat's default view of a `serviceSqlApi` step, `SqlToolView` with its table and chart.
 *
 * Left to itself, rollup sees that the entry loads the view anyway and merges it into the chat's
 * chunk, so every bundler would carry it with the chat. So the view (the modules of `within` that
 * it needs and its `loader` does not) gets a chunk of its own in `_lazy/`, and the components of
 * `users` that import it statically (the data components) a chunk after it (left in the loader's
 * chunk, they would make the two chunks import each other, and whichever ran first would call into
 * the other before it had run).
 *
 * The entry must not import the view's chunk itself either: a bundler that sees the entry import
 * a chunk that an `import()` loads too (esbuild, rolldown) keeps it in the entry's bundle, even for
 * an app that imports only `AgentChat`. So the entry's exports of `exports` (the folder's index)
 * are bindings of their own in the `users` chunk, which an app that does not use them drops whole.
 */
const LAZY_VIEWS = [
  {
    name: 'sql-view',
    root: '/src/components/results/SqlToolView.tsx',
    loader: '/src/components/chat/index.ts',
    within: '/src/components/results/',
    users: '/src/components/data/',
    exports: './components/results',
  },
];

const REACT_ENTRY = '/src/index.ts';
const VIEW_EXPORTS = '\0lazy-view-exports:';

/** `from` and every module it imports statically, directly or not, among `ids`. */
function staticClosure(from, ids, getModuleInfo) {
  const seen = new Set();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop();
    if (seen.has(id) || !ids.has(id)) continue;
    seen.add(id);
    stack.push(...(getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** `manualChunks` for {@link LAZY_VIEWS} (with `onlyExplicitManualChunks`: the rest keeps rollup's chunks). */
function lazyViewChunks() {
  let owners;
  return (id, { getModuleIds, getModuleInfo }) => {
    if (!owners) {
      owners = new Map();
      const all = [...getModuleIds()];
      const ids = new Set(all.filter((module) => /\/src\/(components|react)\//.test(module)));
      const core = new Set(all.filter((module) => module.includes('/src/core/')));
      for (const view of LAZY_VIEWS) {
        const root = [...ids].find((module) => module.endsWith(view.root));
        const loader = [...ids].find((module) => module.endsWith(view.loader));
        if (!root || !loader) throw new Error(`rollup: the lazy view ${view.name} or its loader is gone`);
        const loaded = staticClosure(loader, ids, getModuleInfo);
        if (loaded.has(root)) throw new Error(`rollup: ${view.loader} imports ${view.root} statically`);
        const own = [...staticClosure(root, ids, getModuleInfo)].filter((module) => !loaded.has(module));
        for (const module of own) owners.set(module, view.name);
        // The core modules only the view uses (formatting, CSV) in a chunk of their own: merged
        // into a chunk with what the chat needs up front, a bundler would load them up front too.
        const everything = new Set([...ids, ...core]);
        const loadedAll = staticClosure(loader, everything, getModuleInfo);
        for (const module of staticClosure(root, everything, getModuleInfo))
          if (core.has(module) && !loadedAll.has(module)) owners.set(module, `${view.name}-core`);
        // Loaded only with import() (the chart runtime): a chunk of its own already.
        const lazyOnly = (module) => getModuleInfo(module)?.importers.length === 0;
        for (const module of ids) {
          if (loaded.has(module) || owners.has(module) || lazyOnly(module)) continue;
          const reached = staticClosure(module, ids, getModuleInfo);
          if (module.includes(view.users) || own.some((member) => reached.has(member)))
            owners.set(module, `${view.name}-users`);
        }
        owners.set(`${VIEW_EXPORTS}${view.name}`, `${view.name}-users`);
      }
    }
    return owners.get(id);
  };
}

/** The entry's exports of each of {@link LAZY_VIEWS}' `exports`, as `const` bindings of a module of their own. */
function lazyViewExports() {
  return {
    name: 'lazy-view-exports',
    resolveId(source, importer) {
      const view = importer?.endsWith(REACT_ENTRY) && LAZY_VIEWS.find((candidate) => candidate.exports === source);
      return view ? `${VIEW_EXPORTS}${view.name}` : null;
    },
    async load(id) {
      if (!id.startsWith(VIEW_EXPORTS)) return null;
      const view = LAZY_VIEWS.find((candidate) => id === `${VIEW_EXPORTS}${candidate.name}`);
      const entry = [...this.getModuleIds()].find((module) => module.endsWith(REACT_ENTRY));
      const target = await this.resolve(view.exports, entry, { skipSelf: true });
      const { exports } = await this.load({ id: target.id });
      return [
        `import * as view from ${JSON.stringify(target.id)};`,
        ...exports.map((name) => `export const ${name} = view.${name};`),
      ].join('\n');
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk' && chunk.isEntry && chunk.imports.some((file) => file.startsWith('_lazy/')))
          throw new Error(`rollup: the entry ${chunk.fileName} imports a chunk that is loaded with import()`);
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
    lazyViewExports(),
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
    // Chunks loaded with import() (the chart runtime, the chat's SQL view) in a folder of their
    // own, so size budgets can tell code loaded on demand from code every import pulls in.
    manualChunks: lazyViewChunks(),
    // Only the modules named there: the rest keeps rollup's own chunks (framework-free code shared
    // with the other entries stays out of React chunks).
    onlyExplicitManualChunks: true,
    // No bare imports of a chunk's dependencies' dependencies: in the entry they would import the
    // lazy views' chunks, which bundlers would then keep in every bundle of the entry.
    hoistTransitiveImports: false,
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
