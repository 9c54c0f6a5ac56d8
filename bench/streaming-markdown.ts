/**
 * StreamingMarkdown benchmark: answers of every shape an analytics agent writes, streamed delta by
 * delta into a DOM (jsdom), by `StreamingMarkdown` and by streamdown side by side, in React's
 * production build and in its development build.
 *
 * What it streams (test/helpers/markdown-corpus.ts, `generateShape`): prose; one long table whose
 * rows arrive one by one; one long fenced SQL block; one long list of nested lists; the usual mixed
 * analytics answer (headings, paragraphs, a list, a 25-row table, a 30-line SQL block); each about
 * 20 KB in 2,000 deltas. And the mixed answer at 100 KB in 10,000 deltas of the same sizes. Each
 * delta is rendered with `flushSync`, so a delta's time covers parse, render and the DOM commit,
 * as a chat that shows every delta pays it.
 *
 * Why these: an answer's cost per delta depends on its shape. A renderer that re-renders only the
 * open block is fast on prose, where blocks are short, but a table or code block is one block
 * that grows for its whole length: unless its rows and lines already shown are left alone, each
 * delta costs the size of the table so far, and the answer as a whole costs the square of its
 * length. The development build is measured because partners develop in it, and it magnifies
 * every element React renders or compares (it records each for its dev tools).
 *
 * Why streamdown: it is what a partner would otherwise use for streamed markdown (2.x: splits
 * the text into blocks per delta with marked's lexer, memoizes blocks, heals the tail).
 * react-markdown with remark-gfm, parsing the whole text per delta, is far slower still; `main`
 * samples it on the mixed answer for reference (every tenth delta of the first and last 200).
 *
 * What it reports, per shape and build: total time over all deltas, its ratio to streamdown's,
 * time per delta, and the time of the last 200 deltas over the first 200 (a renderer whose cost
 * per delta is that of the open block, not of the answer, stays near 1); and the 100 KB answer's
 * time per delta over the 20 KB one's. Budgets (`scripts/check-bench.mjs`, in `npm test`), on the
 * worst shape: total at most 1/4 of streamdown's in production; last/first at most 1.2 in
 * production, 1.3 in development; the 100 KB answer's time per delta at most 1.3 times the 20 KB
 * one's.
 *
 * How, on machines shared with other work: times are CPU time of this process (another process
 * taking the core does not stretch them, as it stretches wall-clock time); whatever is compared is
 * measured in lockstep (StreamingMarkdown and streamdown take turns on each delta; an early and a
 * late root take turns for last/first, median of five runs for StreamingMarkdown; the 100 KB and
 * the 20 KB answer take turns for their ratio), so a machine that gets busier mid-run weighs on
 * both alike. Early and late are compared like with like: the mixed answers end with their first
 * blocks again, so their last 200 deltas stream the text of their first 200, and where early and
 * late take turns, a full garbage collection runs untimed every 20 deltas (one costs as much as
 * 50 deltas and would land on either side at random). React's build is chosen when React loads,
 * so each build runs in a process of its own.
 *
 * @module
 */
import { JSDOM } from 'jsdom';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { deltasOf, generateShape, type AnswerShape } from '../test/helpers/markdown-corpus';
import { cpuTime, median } from './helpers/measure';

/** One answer the bench streams. */
export interface BenchShape {
  /** Name in the report. */
  name: string;
  shape: AnswerShape;
  bytes: number;
  deltas: number;
  /**
   * streamdown renders every `streamdownStep`th delta only, and its total is the sum of those
   * times `streamdownStep`. Rendering every delta of a long table or list takes streamdown minutes
   * (it renders the whole block again per delta: 160 s for the table). Its cost for a delta depends
   * on the text it shows, not on which deltas it rendered before, so the estimate holds.
   */
  streamdownStep: number;
  /**
   * The answer ends with its first blocks again (about as many as its first 200 deltas hold), cut
   * into the same deltas: its last 200 deltas then stream the same text as its first 200, late
   * in the answer instead of at its start. For answers that mix blocks of every kind, whose
   * cycle (about 4 KB) is longer than 200 deltas (about 2 KB): otherwise the two would compare a
   * table with a paragraph, not early with late.
   */
  repeatHead?: boolean;
}

/** The answers streamed, in the order reported. */
export const BENCH_SHAPES: readonly BenchShape[] = [
  { name: 'prose', shape: 'prose', bytes: 20_000, deltas: 2_000, streamdownStep: 1 },
  { name: 'table', shape: 'table', bytes: 20_000, deltas: 2_000, streamdownStep: 20 },
  { name: 'sql', shape: 'sql', bytes: 20_000, deltas: 2_000, streamdownStep: 4 },
  { name: 'lists', shape: 'lists', bytes: 20_000, deltas: 2_000, streamdownStep: 10 },
  { name: 'mixed', shape: 'mixed', bytes: 20_000, deltas: 2_000, streamdownStep: 1, repeatHead: true },
  { name: 'mixed 100 kB', shape: 'mixed', bytes: 100_000, deltas: 10_000, streamdownStep: 10, repeatHead: true },
];

/** The shape whose time per delta the 100 KB answer is compared with, and the 100 KB answer. */
const SMALL = 'mixed';
const LARGE = 'mixed 100 kB';

/** React's build: chosen by `NODE_ENV` when React loads. */
export type ReactBuild = 'production' | 'development';

/** One renderer's timings on one answer, in CPU milliseconds. */
export interface RendererResult {
  /** Time spent rendering all deltas (`undefined` when only sampled). */
  totalMs: number | undefined;
  /** `totalMs` over the number of deltas. */
  perDeltaMs: number | undefined;
  /** Time per delta, mean over the first 200 deltas (or their sample). */
  firstMs: number;
  /** Time per delta, mean over the last 200 deltas (or their sample). */
  lastMs: number;
  /** `lastMs / firstMs`. */
  lastToFirst: number;
}

/** What one answer measured. */
export interface ShapeResult {
  name: string;
  bytes: number;
  deltas: number;
  streamingMarkdown: RendererResult;
  /** `undefined` when streamdown was left out. */
  streamdown: RendererResult | undefined;
  /** StreamingMarkdown's total over streamdown's (`undefined` when streamdown was left out). */
  totalToStreamdown: number | undefined;
}

/** What {@link runStreamingMarkdownBenchmark} measured, in one build. */
export interface StreamingMarkdownBenchResult {
  build: ReactBuild;
  shapes: ShapeResult[];
  /**
   * StreamingMarkdown's time per delta on the 100 KB answer over the 20 KB mixed one, measured in
   * lockstep (`undefined` unless both ran).
   */
  largeToSmall: number | undefined;
  /** The worst shape's numbers: what the budgets are checked on. */
  worst: { totalToStreamdown: number | undefined; lastToFirst: number };
}

/** Options; the defaults are what the budget check uses. */
export interface StreamingMarkdownBenchOptions {
  /** Names of the {@link BENCH_SHAPES} to run. Default: all. */
  shapes?: readonly string[];
  /** Measure streamdown too. Default true. */
  streamdown?: boolean;
  /** Sample the naive react-markdown render on the mixed answer. Default false. */
  naive?: boolean;
  seed?: number;
}

const EDGE = 200;
/** Deltas between the untimed full garbage collections of `collect`. */
const COLLECT_EVERY = 20;

/**
 * A full garbage collection, untimed (when Node runs with `--expose-gc`, as `runInBuild` starts
 * it). Where early and late deltas are compared, one collection of the whole heap (both roots,
 * jsdom, the other renderer) costs as much as 50 deltas and lands on whichever side allocates at
 * that moment: run untimed every few deltas, none does, and what each side allocates still costs
 * it its young-generation collections.
 */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

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
 * Runs the benchmark in this process, in the React build `NODE_ENV` selects (set it before
 * anything loads React). Renderers take turns on the same deltas; the DOM is jsdom, so absolute
 * times are slower than a browser's, but both renderers pay the same DOM.
 */
export async function runStreamingMarkdownBenchmark(
  options: StreamingMarkdownBenchOptions = {},
): Promise<StreamingMarkdownBenchResult> {
  const { streamdown: withStreamdown = true, naive = false, seed = 3 } = options;
  const build: ReactBuild = process.env.NODE_ENV === 'production' ? 'production' : 'development';
  const chosen = BENCH_SHAPES.filter((shape) => !options.shapes || options.shapes.includes(shape.name));
  installDom();
  // Imported after the DOM exists: React DOM decides at load whether it runs in a browser.
  const React = await import('react');
  const { createRoot } = await import('react-dom/client');
  const { flushSync } = await import('react-dom');
  const { StreamingMarkdown } = await import('../src/components/markdown');
  const { Streamdown } = await import('streamdown');
  const { default: Markdown } = await import('react-markdown');
  const { default: remarkGfm } = await import('remark-gfm');

  type Name = 'streamingMarkdown' | 'streamdown' | 'naive';
  type Render = (text: string, streaming: boolean) => React.ReactElement;
  const renderers: Record<Name, Render> = {
    streamingMarkdown: (value, streaming) => React.createElement(StreamingMarkdown, { text: value, streaming }),
    streamdown: (value, streaming) =>
      React.createElement(
        Streamdown,
        { mode: 'streaming', isAnimating: streaming, parseIncompleteMarkdown: true },
        value,
      ),
    naive: (value) => React.createElement(Markdown, { remarkPlugins: [remarkGfm] }, value),
  };

  /** An answer cut into deltas, as the prefixes each render shows. */
  interface Stream {
    text: string;
    prefixes: string[];
  }
  const streamOf = (shape: BenchShape): Stream => {
    const generated = generateShape(shape.shape, shape.bytes, seed);
    let deltas: string[];
    if (shape.repeatHead) {
      // The first blocks up to about 200 deltas' worth of text (10 characters a delta), then the
      // rest, then those first blocks again, cut the same way.
      const headEnd = generated.indexOf('\n\n', (generated.length / shape.deltas) * EDGE) + 2;
      const head = deltasOf(generated.slice(0, headEnd), EDGE, seed);
      const body = deltasOf(`${generated.slice(headEnd)}\n`, shape.deltas - 2 * EDGE, seed);
      deltas = [...head, ...body, ...head];
    } else {
      deltas = deltasOf(generated, shape.deltas, seed);
    }
    const prefixes: string[] = [];
    let sum = '';
    for (const delta of deltas) prefixes.push((sum += delta));
    return { text: sum, prefixes };
  };

  /** A root rendering one renderer's view of a stream into the DOM. */
  const mount = (render: Render, stream: Stream) => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    return {
      /** Renders prefix `index` (or the complete text) and returns the CPU milliseconds it took. */
      show(index: number | 'complete'): number {
        const element = index === 'complete' ? render(stream.text, false) : render(stream.prefixes[index]!, true);
        const start = cpuTime();
        flushSync(() => root.render(element));
        return cpuTime() - start;
      },
      close(): void {
        // Rendering nothing at all would be fast too.
        if ((container.textContent?.length ?? 0) < stream.text.length / 2)
          throw new Error('streaming-markdown bench: the answer did not render');
        root.unmount();
        container.remove();
      },
    };
  };

  /**
   * Streams every delta through all `names` in lockstep (alternating who goes first), so a
   * machine that gets busier or quieter mid-run weighs on each alike; `steps[i]` > 1 renders only
   * every so many deltas through `names[i]`, whose total is then scaled up by as much. Returns the
   * total per name.
   */
  const totals = (stream: Stream, names: readonly Name[], steps: readonly number[] = names.map(() => 1)): number[] => {
    const views = names.map((name) => mount(renderers[name], stream));
    const sums = names.map(() => 0);
    for (let index = 0; index < stream.prefixes.length; index++) {
      for (let turn = 0; turn < views.length; turn++) {
        const which = (turn + index) % views.length;
        if (index % steps[which]! === 0) sums[which]! += views[which]!.show(index);
      }
    }
    for (const view of views) {
      view.show('complete');
      view.close();
    }
    return sums.map((sum, which) => sum * steps[which]!);
  };

  /**
   * Last 200 deltas over first 200 of one renderer, measured in lockstep too: one root streams
   * the first 200 while another, filled untimed up to 200 before the end, streams the last 200.
   */
  const edges = (stream: Stream, name: Name, step = 1): { firstMs: number; lastMs: number } => {
    const early = mount(renderers[name], stream);
    const late = mount(renderers[name], stream);
    const lateStart = stream.prefixes.length - EDGE;
    late.show(lateStart - 1);
    let first = 0;
    let last = 0;
    let samples = 0;
    for (let offset = 0; offset < EDGE; offset += step) {
      if (offset % COLLECT_EVERY === 0) collect();
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

  const measureEdges = (stream: Stream, name: Name, step: number, runs: number) => {
    const results = Array.from({ length: runs }, () => edges(stream, name, step));
    return {
      firstMs: median(results.map((result) => result.firstMs)),
      lastMs: median(results.map((result) => result.lastMs)),
      lastToFirst: median(results.map((result) => result.lastMs / result.firstMs)),
    };
  };

  /**
   * Time per delta of StreamingMarkdown on `large` over `small`, in lockstep: a delta of one,
   * then a delta of the other. `small` starts again (on a new root) whenever it runs out.
   */
  const perDeltaRatio = (small: Stream, large: Stream): number => {
    let smallView = mount(renderers.streamingMarkdown, small);
    const largeView = mount(renderers.streamingMarkdown, large);
    let smallSum = 0;
    let largeSum = 0;
    for (let index = 0; index < large.prefixes.length; index++) {
      const smallIndex = index % small.prefixes.length;
      if (index > 0 && smallIndex === 0) {
        smallView.show('complete');
        smallView.close();
        smallView = mount(renderers.streamingMarkdown, small);
      }
      if (index % COLLECT_EVERY === 0) collect();
      if (index % 2 === 0) {
        largeSum += largeView.show(index);
        smallSum += smallView.show(smallIndex);
      } else {
        smallSum += smallView.show(smallIndex);
        largeSum += largeView.show(index);
      }
    }
    for (const view of [smallView, largeView]) {
      view.show('complete');
      view.close();
    }
    return largeSum / smallSum;
  };

  // Warm-up: let the JIT settle on the paths measured, on every shape's constructs.
  const warmUp = streamOf({ name: 'warm-up', shape: 'mixed', bytes: 20_000, deltas: 2_000, streamdownStep: 4 });
  totals(warmUp, withStreamdown ? ['streamingMarkdown', 'streamdown'] : ['streamingMarkdown'], [4, 4]);

  const streams = new Map<string, Stream>();
  const shapes: ShapeResult[] = [];
  for (const shape of chosen) {
    const stream = streamOf(shape);
    streams.set(shape.name, stream);
    const names: Name[] = withStreamdown ? ['streamingMarkdown', 'streamdown'] : ['streamingMarkdown'];
    const [ours, theirs] = totals(stream, names, [1, shape.streamdownStep]);
    const count = stream.prefixes.length;
    const streamingMarkdown: RendererResult = {
      totalMs: ours!,
      perDeltaMs: ours! / count,
      ...measureEdges(stream, 'streamingMarkdown', 1, 5),
    };
    const streamdown: RendererResult | undefined =
      theirs === undefined
        ? undefined
        : {
            totalMs: theirs,
            perDeltaMs: theirs / count,
            ...measureEdges(stream, 'streamdown', shape.streamdownStep, 1),
          };
    shapes.push({
      name: shape.name,
      bytes: stream.text.length,
      deltas: count,
      streamingMarkdown,
      streamdown,
      totalToStreamdown: theirs === undefined ? undefined : ours! / theirs,
    });
    if (naive && shape.name === SMALL) {
      const sampled = measureEdges(stream, 'naive', 10, 1);
      console.log(
        `  react-markdown, whole text per delta, ${shape.name}: first 200 ${sampled.firstMs.toFixed(2)} ms/delta, ` +
          `last 200 ${sampled.lastMs.toFixed(2)} ms/delta, last/first ${sampled.lastToFirst.toFixed(2)} (every tenth delta)`,
      );
    }
  }
  const small = streams.get(SMALL);
  const large = streams.get(LARGE);
  const largeToSmall = small && large ? perDeltaRatio(small, large) : undefined;
  return {
    build,
    shapes,
    largeToSmall,
    worst: {
      totalToStreamdown: withStreamdown ? Math.max(...shapes.map((shape) => shape.totalToStreamdown!)) : undefined,
      lastToFirst: Math.max(...shapes.map((shape) => shape.streamingMarkdown.lastToFirst)),
    },
  };
}

/**
 * Runs {@link runStreamingMarkdownBenchmark} in a child process that loads React's `build`
 * (`NODE_ENV` decides it when React loads, once per process). Resolves with its result.
 */
export function runInBuild(
  build: ReactBuild,
  options: StreamingMarkdownBenchOptions = {},
): StreamingMarkdownBenchResult {
  const script =
    `const m = await import(${JSON.stringify(import.meta.url)});` +
    `const result = await m.runStreamingMarkdownBenchmark(${JSON.stringify(options)});` +
    `console.log('\\n' + JSON.stringify(result)); process.exit(0);`;
  const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: build },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = child.stdout.trim().split('\n');
  for (const line of lines.slice(0, -1)) if (line !== '') console.log(line);
  if (child.status !== 0) throw new Error(`streaming-markdown bench: the ${build} build's run failed`);
  return JSON.parse(lines.at(-1)!) as StreamingMarkdownBenchResult;
}

/** The report of one build's run, one line per answer. */
export function formatResult(result: StreamingMarkdownBenchResult): string {
  const ms = (value: number | undefined, digits = 0, width = 7) =>
    value === undefined ? '(sampled)'.padStart(width) : value.toFixed(digits).padStart(width);
  const lines = [
    `streaming-markdown, React ${result.build} build (jsdom, CPU ms, one flushSync render per delta):`,
    `  ${'answer'.padEnd(13)} ${'size'.padStart(8)} ${'deltas'.padStart(6)}` +
      `   StreamingMarkdown: ${'total'.padStart(7)} ${'/delta'.padStart(6)} ${'last/first'.padStart(10)}` +
      `   streamdown: ${'total'.padStart(7)} ${'/delta'.padStart(6)} ${'last/first'.padStart(10)}   ours/theirs`,
  ];
  for (const shape of result.shapes) {
    const ours = shape.streamingMarkdown;
    const theirs = shape.streamdown;
    lines.push(
      `  ${shape.name.padEnd(13)} ${`${(shape.bytes / 1000).toFixed(1)} kB`.padStart(8)} ${String(shape.deltas).padStart(6)}` +
        `   ${''.padEnd(18)} ${ms(ours.totalMs)} ${ms(ours.perDeltaMs, 3, 6)} ${ours.lastToFirst.toFixed(2).padStart(10)}` +
        (theirs
          ? `   ${''.padEnd(11)} ${ms(theirs.totalMs)} ${ms(theirs.perDeltaMs, 3, 6)} ${theirs.lastToFirst.toFixed(2).padStart(10)}` +
            `   ${shape.totalToStreamdown!.toFixed(3).padStart(11)}`
          : ''),
    );
  }
  if (result.largeToSmall !== undefined)
    lines.push(`  time per delta, ${LARGE} over ${SMALL} (in lockstep): ${result.largeToSmall.toFixed(2)}`);
  return lines.join('\n');
}

/** Prints the results of both builds; the script entry point. */
export async function main(): Promise<void> {
  for (const build of ['production', 'development'] as const) {
    const result = runInBuild(build, { naive: build === 'production' });
    console.log(formatResult(result));
  }
}

if (typeof process !== 'undefined' && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
