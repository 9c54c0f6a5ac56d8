/**
 * StreamingMarkdown benchmark: a 20 KB answer streamed in 2,000 deltas, rendered after each delta
 * into a DOM (jsdom) by three renderers side by side in one process:
 *
 * - `StreamingMarkdown` (this library): settled blocks rendered once, only the tail per delta.
 * - `streamdown` (2.x): splits the whole text into blocks per delta (marked's lexer), memoizes
 *   blocks, heals the tail (remend); the usual choice for streamed markdown.
 * - react-markdown + remark-gfm used naively: the whole text parsed and rendered per delta. It is
 *   far too slow to run through all 2,000 deltas on every check, so it is timed on every tenth
 *   delta of the first and the last 200: enough for its last/first ratio, not for a total.
 *
 * Reports, per renderer: total render time over all deltas, and time of the last 200 deltas over
 * the first 200 (a renderer whose cost per delta is that of the tail stays near 1). Budgets
 * (checked by `scripts/check-bench.mjs`): last/first at most 1.3, total at most a third of
 * streamdown's. Each delta is rendered with `flushSync`, so the time covers parse, render and the
 * DOM commit. The machines this runs on are shared, so everything compared is measured in
 * lockstep: StreamingMarkdown and streamdown take turns on each delta for the totals, and an early
 * and a late root take turns for last/first (median of three such runs).
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
  const dom = new JSDOM('<!doctype html><html><body></body></html>', {
    pretendToBeVisual: true,
    url: 'http://localhost/',
  });
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
export async function runStreamingMarkdownBenchmark(
  options: StreamingMarkdownBenchOptions = {},
): Promise<StreamingMarkdownBenchResult> {
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
      React.createElement(
        Streamdown,
        { mode: 'streaming', isAnimating: streaming, parseIncompleteMarkdown: true },
        value,
      ),
    naive: (value) => React.createElement(Markdown, { remarkPlugins: [remarkGfm] }, value),
  };

  /** A root rendering one renderer's view of the stream into the DOM. */
  const mount = (render: Render) => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    return {
      /** Renders prefix `index` (or the complete text) and returns the milliseconds it took. */
      show(index: number | 'complete'): number {
        const element = index === 'complete' ? render(text, false) : render(prefixes[index]!, true);
        const start = performance.now();
        flushSync(() => root.render(element));
        return performance.now() - start;
      },
      close(): void {
        if (!container.textContent?.includes('ORDER BY revenue DESC'))
          throw new Error('streaming-markdown bench: nothing rendered');
        root.unmount();
        container.remove();
      },
    };
  };

  /**
   * Streams every delta through all `names` in lockstep (alternating who goes first), so a
   * machine that gets busier or quieter mid-run weighs on each alike. Returns the total per name.
   */
  const totals = (names: readonly (keyof typeof renderers)[], step = 1): number[] => {
    const views = names.map((name) => mount(renderers[name]));
    const sums = names.map(() => 0);
    for (let index = 0; index < prefixes.length; index += step) {
      for (let turn = 0; turn < views.length; turn++) {
        const which = (turn + index) % views.length;
        sums[which]! += views[which]!.show(index);
      }
    }
    for (const view of views) {
      view.show('complete');
      view.close();
    }
    return sums;
  };

  /**
   * Last 200 deltas over first 200 of one renderer, measured in lockstep too: one root streams
   * the first 200 while another, filled untimed up to delta 1,800, streams the last 200.
   */
  const edges = (name: keyof typeof renderers, step = 1): { firstMs: number; lastMs: number } => {
    const early = mount(renderers[name]);
    const late = mount(renderers[name]);
    const lateStart = prefixes.length - EDGE;
    late.show(lateStart - 1);
    let first = 0;
    let last = 0;
    let samples = 0;
    for (let offset = 0; offset < EDGE; offset += step) {
      if (offset % 2 === 0) {
        first += early.show(offset);
        last += late.show(lateStart + offset);
      } else {
        last += late.show(lateStart + offset);
        first += early.show(offset);
      }
      samples += 1;
    }
    for (let index = EDGE; index < lateStart; index += 50) early.show(index);
    early.show('complete');
    late.show('complete');
    early.close();
    late.close();
    return { firstMs: first / samples, lastMs: last / samples };
  };

  const median = (values: readonly number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  const measure = (name: keyof typeof renderers, step: number, runs: number) => {
    const results = Array.from({ length: runs }, () => edges(name, step));
    const ratios = results.map((result) => result.lastMs / result.firstMs);
    const firstMs = median(results.map((result) => result.firstMs));
    const lastMs = median(results.map((result) => result.lastMs));
    return { firstMs, lastMs, lastToFirst: median(ratios) };
  };

  // Warm-up: let the JIT settle on both paths that are budgeted.
  totals(['streamingMarkdown', 'streamdown'], 4);

  const [ours, theirs] = totals(['streamingMarkdown', 'streamdown']);
  const streamingMarkdown: RendererResult = { totalMs: ours!, ...measure('streamingMarkdown', 1, 3) };
  const streamdown: RendererResult = { totalMs: theirs!, ...measure('streamdown', 1, 1) };
  const naiveResult: RendererResult = naive
    ? { totalMs: undefined, ...measure('naive', 10, 1) }
    : { totalMs: undefined, firstMs: NaN, lastMs: NaN, lastToFirst: NaN };
  return {
    bytes: text.length,
    deltas: deltas.length,
    streamingMarkdown,
    streamdown,
    naive: naiveResult,
    totalToStreamdown: ours! / theirs!,
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
