/**
 * StreamingMarkdown benchmark: a 20 KB answer streamed in 2,000 deltas, rendered after each delta
 * into a DOM (jsdom) by three renderers side by side in one process:
 *
 * - `StreamingMarkdown` (this library): settled blocks rendered once, only the tail per delta.
 * - `streamdown` (2.x): splits the whole text into blocks per delta (marked's lexer), memoizes
 *   blocks, heals the tail (remend); the usual choice for streamed markdown.
 * - react-markdown + remark-gfm used naively: the whole text parsed and rendered per delta. It is
 *   far too slow to run through all 2,000 deltas on every check, so it is timed on every tenth
 *   delta of the first and the last 200 (its text is set, untimed, in between): enough for its
 *   last/first ratio, not for a total.
 *
 * Reports, per renderer: total render time over all deltas, and time of the last 200 deltas over
 * the first 200 (a renderer whose cost per delta is that of the tail stays near 1). Budgets
 * (checked by `scripts/check-bench.mjs`): last/first at most 1.3, total at most a third of
 * streamdown's. Each delta is rendered with `flushSync`, so the time covers parse, render and the
 * DOM commit.
 *
 * @module
 */
import { JSDOM } from 'jsdom';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { deltasOf, generateAnswer } from '../test/helpers/markdown-corpus';

/** One renderer's timings. */
export interface RendererResult {
  /** Milliseconds spent rendering all deltas (undefined when only sampled). */
  totalMs: number | undefined;
  /** Milliseconds per delta, mean over the first 200 deltas (or their sample). */
  firstMs: number;
  /** Milliseconds per delta, mean over the last 200 deltas (or their sample). */
  lastMs: number;
  /** `lastMs / firstMs`. */
  lastToFirst: number;
}

/** What {@link runStreamingMarkdownBenchmark} measured. */
export interface StreamingMarkdownBenchResult {
  bytes: number;
  deltas: number;
  streamingMarkdown: RendererResult;
  streamdown: RendererResult;
  naive: RendererResult;
  /** StreamingMarkdown's total over streamdown's. */
  totalToStreamdown: number;
}

/** Options; the defaults are what the budget check uses. */
export interface StreamingMarkdownBenchOptions {
  bytes?: number;
  deltas?: number;
  seed?: number;
  /** Skip the slow naive baseline (the budgets do not depend on it). */
  naive?: boolean;
}

const EDGE = 200;

function installDom(): void {
  if (typeof (globalThis as { document?: unknown }).document !== 'undefined') return;
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true, url: 'http://localhost/' });
  const window = dom.window as unknown as Record<string, unknown>;
  for (const name of [...Object.getOwnPropertyNames(window), 'window', 'document', 'navigator']) {
    if (name in globalThis && name !== 'navigator') continue;
    Object.defineProperty(globalThis, name, { configurable: true, get: () => window[name] });
  }
}

/**
 * Runs the benchmark. Renderers take turns on the same deltas; the DOM is jsdom, so absolute
 * times are slower than a browser's, but all three pay the same DOM.
 */
export async function runStreamingMarkdownBenchmark(options: StreamingMarkdownBenchOptions = {}): Promise<StreamingMarkdownBenchResult> {
  const { bytes = 20_000, deltas: count = 2_000, seed = 3, naive = true } = options;
  if (process.env.NODE_ENV !== 'production') {
    // React's development build costs several times the production one per element (it records
    // a task per element for dev tools): timing it would measure React's checks, not rendering.
    throw new Error('streaming-markdown bench: run with NODE_ENV=production, set before React loads');
  }
  installDom();
  // Imported after the DOM exists: React DOM decides at load whether it runs in a browser.
  const React = await import('react');
  const { createRoot } = await import('react-dom/client');
  const { flushSync } = await import('react-dom');
  const { StreamingMarkdown } = await import('../src/components/markdown');
  const { Streamdown } = await import('streamdown');
  const { default: Markdown } = await import('react-markdown');
  const { default: remarkGfm } = await import('remark-gfm');

  const text = generateAnswer(bytes, seed);
  const deltas = deltasOf(text, count, seed);
  const prefixes: string[] = [];
  let sum = '';
  for (const delta of deltas) prefixes.push((sum += delta));

  type Render = (text: string, streaming: boolean) => React.ReactElement;
  const renderers: Record<'streamingMarkdown' | 'streamdown' | 'naive', Render> = {
    streamingMarkdown: (value, streaming) => React.createElement(StreamingMarkdown, { text: value, streaming }),
    streamdown: (value, streaming) =>
      React.createElement(Streamdown, { mode: 'streaming', isAnimating: streaming, parseIncompleteMarkdown: true }, value),
    naive: (value) => React.createElement(Markdown, { remarkPlugins: [remarkGfm] }, value),
  };

  /** Times each delta in `indexes` (rendering the others untimed when `fill`). */
  const stream = (render: Render, indexes: readonly number[]): number[] => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    const times: number[] = [];
    for (const index of indexes) {
      const element = render(prefixes[index]!, true);
      const start = performance.now();
      flushSync(() => root.render(element));
      times.push(performance.now() - start);
    }
    flushSync(() => root.render(render(text, false)));
    if (!container.textContent?.includes('ORDER BY revenue DESC')) throw new Error('streaming-markdown bench: nothing rendered');
    root.unmount();
    container.remove();
    return times;
  };

  const all = prefixes.map((_, index) => index);
  const result = (times: readonly number[], firstCount: number, lastCount: number, total: boolean): RendererResult => {
    const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const firstMs = mean(times.slice(0, firstCount));
    const lastMs = mean(times.slice(times.length - lastCount));
    return { totalMs: total ? times.reduce((a, b) => a + b, 0) : undefined, firstMs, lastMs, lastToFirst: lastMs / firstMs };
  };

  // Warm-up: let the JIT settle on both paths that are budgeted.
  stream(renderers.streamingMarkdown, all.filter((index) => index % 4 === 0));
  stream(renderers.streamdown, all.filter((index) => index % 4 === 0));

  const ours = stream(renderers.streamingMarkdown, all);
  const theirs = stream(renderers.streamdown, all);
  let naiveResult: RendererResult = { totalMs: undefined, firstMs: NaN, lastMs: NaN, lastToFirst: NaN };
  if (naive) {
    const sampled = [...all.slice(0, EDGE), ...all.slice(-EDGE)].filter((index) => index % 10 === 0);
    naiveResult = result(stream(renderers.naive, sampled), EDGE / 10, EDGE / 10, false);
  }
  const streamingMarkdown = result(ours, EDGE, EDGE, true);
  const streamdown = result(theirs, EDGE, EDGE, true);
  return {
    bytes: text.length,
    deltas: deltas.length,
    streamingMarkdown,
    streamdown,
    naive: naiveResult,
    totalToStreamdown: streamingMarkdown.totalMs! / streamdown.totalMs!,
  };
}

/** Prints the results; the script entry point. */
export async function main(): Promise<void> {
  if (process.env.NODE_ENV !== 'production') {
    // This bundle imported React already, in development mode: run again in a process that
    // loads React's production build.
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    process.exitCode = child.status ?? 1;
    return;
  }
  const result = await runStreamingMarkdownBenchmark();
  const row = (name: string, timings: RendererResult) =>
    `  ${name.padEnd(28)} total ${timings.totalMs === undefined ? '   (sampled)' : `${timings.totalMs.toFixed(0).padStart(7)} ms`}` +
    `   first 200 ${timings.firstMs.toFixed(2).padStart(7)} ms/delta   last 200 ${timings.lastMs.toFixed(2).padStart(7)} ms/delta` +
    `   last/first ${timings.lastToFirst.toFixed(2)}`;
  console.log(`streaming-markdown: ${(result.bytes / 1000).toFixed(1)} kB in ${result.deltas} deltas (jsdom)`);
  console.log(row('StreamingMarkdown', result.streamingMarkdown));
  console.log(row('streamdown', result.streamdown));
  console.log(row('react-markdown, whole text', result.naive));
  const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER BUDGET');
  console.log(
    `  last/first ${result.streamingMarkdown.lastToFirst.toFixed(2)} (budget 1.3) ${verdict(result.streamingMarkdown.lastToFirst <= 1.3)}; ` +
      `total ${result.totalToStreamdown.toFixed(2)}x streamdown's (budget 0.33) ${verdict(result.totalToStreamdown <= 1 / 3)}`,
  );
}

if (typeof process !== 'undefined' && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
