// @vitest-environment node
/**
 * Server rendering in plain Node, with React 18 and React 19: every entry a server may import
 * (`@service/react`, `/core`, `/server`, `/emulator`, `/testing`) imports without touching a
 * browser global, and a server render of every exported component works and shows its placeholder
 * or initial state (test/helpers/ssr-render.mjs).
 *
 * Each run is a child process (test/helpers/ssr-probe.mjs) with nothing loaded but the code under
 * test. While the entries load, recording getters sit on `window`, `document`, `navigator`,
 * `localStorage` and `sessionStorage`: any read of ours, even `typeof window`, fails the test with
 * the place that made it (a dependency's own check, such as TanStack Query's `isServer`, is not
 * ours to fail). The render then runs with the globals as Node has them, so an unguarded read
 * throws as it would on a partner's server.
 *
 * What runs:
 * - the sources, bundled with esbuild per React version: `react` and `react-dom` are aliased to the
 *   `react-18` / `react-dom-18` dev dependencies for React 18, and bundled together with TanStack
 *   Query so the library and the renderer share one React, as in an app on that version; the other
 *   dependencies stay imports Node resolves;
 * - the build (`dist/`) the same way, and as it is, imported by its package names (ESM and CommonJS)
 *   on React 19. `npm test` builds before vitest; when `dist/` is missing or older than `src/`
 *   (a bare `npx vitest` after an edit), the build's cases are skipped and say why.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import pkg from '../../../package.json';

const ROOT = resolve(import.meta.dirname, '../../..');
const PROBE = join(ROOT, 'test/helpers/ssr-probe.mjs');
const RENDER = join(ROOT, 'test/helpers/ssr-render.mjs');
const MARKER = '@@ssr-probe@@';
const run = promisify(execFile);

/** The entries a server may import: package subpath, and its file under `src/` and `dist/`. */
const ENTRIES = [
  { name: '@service/react', src: 'src/index.ts', dist: 'dist/index.js' },
  { name: '@service/react/core', src: 'src/core/index.ts', dist: 'dist/core/index.js' },
  { name: '@service/react/server', src: 'src/server/index.ts', dist: 'dist/server/index.js' },
  { name: '@service/react/emulator', src: 'src/emulator/index.ts', dist: 'dist/emulator/index.js' },
  { name: '@service/react/testing', src: 'src/testing/index.ts', dist: 'dist/testing/index.js' },
] as const;

type From = 'src' | 'dist';

/** What the probe reports. */
interface ProbeResult {
  imports: { label: string; exports?: number; error?: string }[];
  rendered?: { version: string; html: Record<string, string> } | { error: string };
  accesses: { global: string; phase: string; where: string }[];
  logged: { level: string; phase: string; message: string }[];
}

/** React and the libraries that import it are bundled (one React per bundle); the rest stay imports. */
const BUNDLED = new Set(['react', 'react-dom', 'react-18', 'react-dom-18', '@tanstack/react-query']);
const EXTERNAL = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.devDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/** `@service/react` and its subpaths, as the sources or the build. */
function packageNames(from: From): Plugin {
  const files = new Map<string, string>(ENTRIES.map((entry) => [entry.name, join(ROOT, entry[from])]));
  return {
    name: 'service-react-entries',
    setup(build) {
      build.onResolve({ filter: /^@service\/react(\/.*)?$/ }, (args) => {
        const path = files.get(args.path);
        return path ? { path } : { errors: [{ text: `no entry ${args.path}` }] };
      });
    },
  };
}

async function bundle(version: 18 | 19, from: From): Promise<{ modules: string[]; render: string }> {
  // One folder per case, emptied first: each probe is a fresh process, so no module cache needs a new name.
  const outdir = join(ROOT, 'node_modules', '.cache', 'ssr-test', `react-${version}-${from}`);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const entryPoints = Object.fromEntries([
    ...ENTRIES.map((entry, index) => [`entry-${index}`, join(ROOT, entry[from])]),
    ['render', RENDER],
  ]);
  await build({
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    // Stacks point at the sources (the probe runs with --enable-source-maps).
    sourcemap: 'inline',
    logLevel: 'error',
    external: EXTERNAL,
    plugins: [packageNames(from)],
    alias: version === 18 ? { react: 'react-18', 'react-dom': 'react-dom-18' } : {},
    // React's CommonJS files call `require`, which ES modules lack.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const url = (name: string) => pathToFileURL(join(outdir, `${name}.mjs`)).href;
  return { modules: ENTRIES.map((_, index) => url(`entry-${index}`)), render: url('render') };
}

async function probe(spec: {
  modules: { label: string; specifier: string; require?: boolean }[];
  render?: string;
}): Promise<ProbeResult> {
  const { stdout } = await run(process.execPath, ['--enable-source-maps', PROBE, JSON.stringify(spec)], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    // React's development builds: the warnings a partner sees while developing count too.
    env: { ...process.env, NODE_ENV: 'development' },
  });
  const at = stdout.lastIndexOf(MARKER);
  if (at === -1) throw new Error(`the probe printed no result:\n${stdout}`);
  return JSON.parse(stdout.slice(at + MARKER.length)) as ProbeResult;
}

/** A place in our code (sources, build, or the render cases), as opposed to a dependency's. */
function isOurs(where: string): boolean {
  return [join(ROOT, 'src') + '/', join(ROOT, 'dist') + '/', RENDER].some((path) => where.includes(path));
}

/**
 * The newest modification time under a folder. Generated files do not count: `npm run generate`
 * rewrites them before every vitest run, and they follow from the sources that do count.
 */
function newest(dir: string): number {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.includes('.generated.'))
      time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return time;
}

const distReady =
  ENTRIES.every((entry) => existsSync(join(ROOT, entry.dist))) &&
  newest(join(ROOT, 'dist')) >= newest(join(ROOT, 'src'));
const distNote = distReady ? '' : ' (skipped: dist/ is missing or older than src/; `npm test` builds first)';

function expectCleanImports(result: ProbeResult, labels: readonly string[]): void {
  expect(result.imports.map((entry) => entry.label)).toEqual(labels);
  for (const entry of result.imports) {
    expect(entry.error, entry.label).toBeUndefined();
    expect(entry.exports, entry.label).toBeGreaterThan(0);
  }
  // Not even a `typeof window` of ours while a module loads: what a module computes from the
  // environment at import is frozen for the process (and wrong under test DOMs and workers).
  expect(result.accesses.filter((access) => access.phase.startsWith('import') && isOurs(access.where))).toEqual([]);
}

/**
 * `build` is the development build (sources under vitest) or the default build of `dist/`, which
 * carries no development hints: the error state says what failed, but only development says why.
 */
function expectRenders(result: ProbeResult, version: 18 | 19, build: 'development' | 'production'): void {
  const rendered = result.rendered;
  if (!rendered || 'error' in rendered) throw new Error(`server render failed: ${rendered?.error ?? 'no render'}`);
  expect(rendered.version.split('.')[0]).toBe(String(version));
  // React says nothing: no useLayoutEffect-on-the-server, key or prop warnings, no errors.
  expect(result.logged).toEqual([]);
  const { html } = rendered;

  // Embeds: the placeholders with their state and size, no iframe on the server.
  expect(html.embeds!.match(/data-state="loading"/g)).toHaveLength(3);
  expect(html.embeds).not.toContain('<iframe');
  expect(html.embeds).toContain('Loading the dashboard…');
  expect(html.embeds).toContain('Einen Moment…');
  expect(html.embeds).toContain('Loading the analytics chat…');
  expect(html.embeds).toContain('height:480px');
  expect(html.embeds).toContain('data-service-embed="dashboard"');
  expect(html['embed-parts']).toContain('Loading the dashboard…');
  expect(html['embed-parts']).toContain('The dashboard could not load');
  if (build === 'development') expect(html['embed-parts']).toContain('The session was refused.');
  else expect(html['embed-parts']).not.toContain('The session was refused.');
  expect(html['embed-parts']).toContain('Try again');

  // The chat starts empty: suggestions and the composer, ready to type.
  expect(html['agent-chat']).toContain('data-part="empty-state"');
  expect(html['agent-chat']).toContain('Revenue by month');
  expect(html['agent-chat']).toContain('data-part="composer"');
  expect(html['agent-chat']).toContain('aria-label="Ask a question"');

  // The parts over a recorded conversation: its messages, thinking, the SQL call and the answer.
  expect(html['chat-parts']).toContain('data-role="user"');
  expect(html['chat-parts']).toContain('data-part="final-answer"');
  expect(html['chat-parts']).toContain('data-part="composer"');
  expect(html['chat-message']).toContain('data-part="final-answer"');
  expect(html['chat-message']).toContain('data-part="thinking"');
  expect(html['chat-message']).toContain('data-tool="serviceSqlApi"');

  // Markdown: the table, the bold cell and the task list, the unfinished code span as text.
  expect(html['streaming-markdown']).toContain('<h1>Revenue</h1>');
  expect(html['streaming-markdown']).toContain('<strong>1,200</strong>');
  expect(html['streaming-markdown']).toContain('<table>');
  expect(html['streaming-markdown']).toContain('type="checkbox"');
  expect(html['streaming-markdown']).not.toContain('<script');

  // Results: the SQL call with its rows, the table, and the chart's placeholder (Vega loads in the browser).
  expect(html['sql-tool-view']).toContain('data-tool="serviceSqlApi"');
  expect(html['sql-tool-view']).toContain('data-state="complete"');
  expect(html['result-table']).toContain('<table');
  expect(html['result-table']).toContain('1,200.5');
  expect(html['result-table']).toContain('Revenue by month');
  expect(html['result-chart']).toContain('data-part="chart"');
  expect(html['result-chart']).not.toContain('<svg');
  expect(html['result-chart']).not.toContain('<canvas');

  // Data views: their loading states without a prefetch, the data with one.
  expect(html['data-views']).toContain('data-part="metric-card" data-state="loading"');
  expect(html['data-views']).toContain('data-part="query-chart" data-state="loading"');
  expect(html['data-views']).toContain('data-part="query-table" data-state="loading"');
  expect(html['data-prefetched']).toContain('data-part="metric-value">$1,234,567.89<');
}

const cases = [
  { version: 18, from: 'src' },
  { version: 19, from: 'src' },
  { version: 18, from: 'dist' },
  { version: 19, from: 'dist' },
] as const;

describe.each(cases)('React $version, $from', ({ version, from }) => {
  it.skipIf(from === 'dist' && !distReady)(
    `imports every entry without touching a browser global, and renders every component${from === 'dist' ? distNote : ''}`,
    { timeout: 120_000 },
    async () => {
      const { modules, render } = await bundle(version, from);
      const result = await probe({
        modules: modules.map((specifier, index) => ({ label: ENTRIES[index]!.name, specifier })),
        render,
      });
      expectCleanImports(
        result,
        ENTRIES.map((entry) => entry.name),
      );
      expectRenders(result, version, from === 'src' ? 'development' : 'production');
    },
  );
});

describe('the build as a server imports it', () => {
  it.skipIf(!distReady)(
    `imports every entry by its package name (ESM and CommonJS) and renders every component on React 19${distNote}`,
    { timeout: 120_000 },
    async () => {
      const labels = ENTRIES.flatMap((entry) => [`import ${entry.name}`, `require ${entry.name}`]);
      const result = await probe({
        modules: ENTRIES.flatMap((entry) => [
          { label: `import ${entry.name}`, specifier: entry.name },
          { label: `require ${entry.name}`, specifier: entry.name, require: true },
        ]),
        render: pathToFileURL(RENDER).href,
      });
      expectCleanImports(result, labels);
      expectRenders(result, 19, 'production');
    },
  );
});
