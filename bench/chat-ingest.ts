/**
 * Chat ingest benchmark: a realistic chat stream (about 2,000 lines, 350 KB) read from bytes in
 * arbitrary chunks by `readNdjson` and merged by the thread store, as the chat UI does it.
 *
 * Reports:
 * - `mbPerSecond`: throughput of the whole path (bytes → lines → store, with a subscriber).
 * - `ratioToJsonParse`: that time over a floor of `JSON.parse` on each line of the decoded text,
 *   both in CPU time (see `cpuTime`). Target ≤ 3.
 * - `lastToFirstDecileRatio`: time in `apply()` per line for the last 10% of lines over the first
 *   10%. The store must cost per line, not per thread: target ≤ 1.2.
 * - `randomToAscendingRatio`, `descendingToAscendingRatio`: the store fed 20,000 messages whose
 *   `sort` arrives in random or descending order, over the same messages in ascending order (with
 *   the same snapshot reads, one per 1,024 lines). Placing a message must not cost in proportion
 *   to the thread: target ≤ 3.
 *
 * Run: `npx esbuild bench/chat-ingest.ts --bundle --platform=node --format=esm --outfile=/tmp/bench.mjs && node /tmp/bench.mjs`.
 * Timings are medians of several runs after a warm-up, so a noisy machine gives stable numbers.
 *
 * @module
 */
import { pathToFileURL } from 'node:url';
import { readNdjson } from '../src/core/ndjson';
import { createThreadStore, type ThreadStore } from '../src/core/thread-store';
import { AGENT_NODE } from '../src/core/protocol/chat';
import { cpuTime, median } from './helpers/measure';
// The same deterministic sequence (mulberry32) the markdown corpus draws from.
import { random } from '../test/helpers/markdown-corpus';

/** What {@link runChatIngestBenchmark} measured. */
export interface ChatIngestResult {
  /** Megabytes (10^6 bytes) of stream per CPU second through `readNdjson` and the store. */
  mbPerSecond: number;
  /** Time of the whole path over the time of `JSON.parse` on each line (the floor). */
  ratioToJsonParse: number;
  /** Time in `apply()` per line, last 10% of lines over first 10%. */
  lastToFirstDecileRatio: number;
  /** Time to place messages arriving in random `sort` order over ascending order. */
  randomToAscendingRatio: number;
  /** Time to place messages arriving in descending `sort` order over ascending order. */
  descendingToAscendingRatio: number;
  /** Lines in the transcript. */
  lines: number;
  /** Bytes in the transcript. */
  bytes: number;
}

/** Options of {@link runChatIngestBenchmark}; the defaults are what the budget check uses. */
export interface ChatIngestOptions {
  /** Independent runs; each result is the median over runs. Default 7. */
  runs?: number;
  /** Passes over the transcript per run for throughput. Default 20. */
  throughputRepetitions?: number;
  /** Passes over the transcript per run for the decile timing. Default 150. */
  decileRepetitions?: number;
  /** Seed of the transcript and the chunking. Default 1. */
  seed?: number;
  /** Messages of the placement measurement. Default 20,000. */
  placementMessages?: number;
  /** Pairs of passes (ascending and another order) per run for the placement measurement. Default 2. */
  placementRepetitions?: number;
}

// ---------------------------------------------------------------------------------------------
// A deterministic transcript shaped like real traffic (protocol 2.8, behaviour 1)

const WORDS = (
  'revenue month region growth orders customers trend average the of by in for and compared to last ' +
  'quarter segment product category increase decrease percent total week café München 売上 📈 data ' +
  'query view measure dimension filter rows chart shows steady strong seasonal peak'
).split(' ');

const REGIONS = ['EU', 'North America', 'APAC', 'LATAM', 'Middle East'];
const CATEGORIES = ['Electronics', 'Home & Garden', 'Books', 'Toys', 'Sports', 'Beauty'];

function words(next: () => number, count: number): string {
  let text = '';
  for (let index = 0; index < count; index++) text += WORDS[Math.floor(next() * WORDS.length)] + ' ';
  return text;
}

function hexId(next: () => number): string {
  return Math.floor(next() * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
}

function sqlResult(next: () => number, rows: number): string {
  const data: string[][] = [];
  for (let index = 0; index < rows; index++) {
    data.push([
      `2024-${String((index % 12) + 1).padStart(2, '0')}-01T00:00:00.000`,
      REGIONS[index % REGIONS.length]!,
      CATEGORIES[Math.floor(next() * CATEGORIES.length)]!,
      (next() * 100000).toFixed(2),
      String(Math.floor(next() * 5000)),
    ]);
  }
  return JSON.stringify({
    sqlQuery:
      'SELECT month, region, category, SUM(revenue) AS revenue, COUNT(*) AS orders FROM orders_view GROUP BY 1, 2, 3',
    queryTitle: 'Revenue by month, region and category',
    description: 'Monthly revenue and order counts per region and category',
    userRequest: 'Show me revenue trends for the last 6 months',
    schema: [
      { name: 'month', column_type: 'Timestamp' },
      { name: 'region', column_type: 'String' },
      { name: 'category', column_type: 'String' },
      { name: 'revenue', column_type: 'Double' },
      { name: 'orders', column_type: 'Int64' },
    ],
    data,
    totalRows: rows === 100 ? 1480 : rows,
    uuid: '5d1c0a6e-1f0e-4c56-9d4a-1b2c3d4e5f60',
    vegaSpec: JSON.stringify({
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      mark: 'line',
      encoding: {
        x: { field: 'month', type: 'temporal' },
        y: { field: 'revenue', type: 'quantitative' },
        color: { field: 'region' },
      },
    }),
  });
}

function metaResult(next: () => number): string {
  const members = Array.from({ length: 8 }, (_, index) => ({
    name: `orders_view.${WORDS[index]}`,
    title: words(next, 2).trim(),
    description: words(next, 8).trim(),
    type: (['string', 'number', 'time', 'boolean'] as const)[index % 4],
    ...(index % 4 === 1 ? { aggType: 'sum' } : {}),
  }));
  return JSON.stringify({
    cubes: [{ name: 'orders_view', type: 'view', title: 'Orders', members }],
    searchQuery: 'revenue trends',
  });
}

/**
 * The transcript, one JSON text per line, built from `seed`: `__cutoff__`, the user echo, ten
 * rounds of agent work, `__state__` (in a foreign serialisation) and `__usage__`. Each round
 * streams thinking deltas, calls `serviceMeta` and `serviceSqlApi` (start and result lines),
 * streams content deltas and ends with a full replacement of its message; the last round's
 * message is the final answer (`graphPath: ["final"]`). Rounds have the same mix of lines, so the
 * first and the last tenth of the stream differ in the size of the thread, not in their lines.
 */
export function buildTranscript(seed = 1): string[] {
  const next = random(seed);
  const lines: unknown[] = [];
  let sort = 0;
  lines.push({
    id: '__cutoff__',
    role: 'assistant',
    state: { isStreaming: false, chatId: 'a1b2c3d4-08d7-40b9-8b1c-e7e3a698647e' },
    sort: sort++,
  });
  const question = 'Show me revenue trends for the last 6 months, by region and category';
  lines.push({ id: '1732512345678-message', role: 'user', content: question, isDelta: false, sort: sort++ });
  const rounds = 10;
  let answer = '';
  for (let round = 0; round < rounds; round++) {
    const isFinal = round === rounds - 1;
    const graphPath = isFinal ? ['final'] : [AGENT_NODE];
    const id = hexId(next);
    const messageSort = sort++;
    let thinking = '';
    for (let delta = 0; delta < 70; delta++) {
      const chunk = words(next, 1 + Math.floor(next() * 3));
      thinking += chunk;
      lines.push({
        id,
        role: 'assistant',
        thinking: chunk,
        graphPath,
        isInProcess: true,
        isDelta: true,
        sort: messageSort,
      });
    }
    lines.push({
      id,
      role: 'assistant',
      content: '',
      thinking,
      graphPath,
      isStructuredResponse: false,
      isInProcess: true,
      isDelta: false,
      sort: messageSort,
    });
    const meta = { name: 'serviceMeta', input: JSON.stringify({ searchQuery: words(next, 2).trim() }) };
    const sql = {
      name: 'serviceSqlApi',
      input: JSON.stringify({
        sqlQuery:
          'SELECT month, region, category, SUM(revenue) AS revenue, COUNT(*) AS orders FROM orders_view GROUP BY 1, 2, 3',
        queryTitle: 'Revenue by month',
        description: 'Monthly revenue per region and category',
        userRequest: question,
        memoryId: `m-${round}`,
        vegaSpec:
          '{"mark":"line","encoding":{"x":{"field":"month","type":"temporal"},"y":{"field":"revenue","type":"quantitative"}}}',
      }),
    };
    // Up to 100 rows (the default cap); full tables in the first and the last round.
    const rows = round === 0 || isFinal ? 100 : 10 + Math.floor(next() * 50);
    for (const [toolCall, result] of [
      [meta, metaResult(next)],
      [sql, sqlResult(next, rows)],
    ] as const) {
      const tool = hexId(next);
      const toolSort = sort++;
      lines.push({
        id: tool,
        role: 'assistant',
        toolCall,
        isInProcess: true,
        graphPath: [AGENT_NODE, 'tools'],
        isDelta: false,
        sort: toolSort,
      });
      lines.push({
        id: tool,
        role: 'assistant',
        toolCall: { ...toolCall, result },
        isInProcess: false,
        graphPath: [AGENT_NODE, 'tools'],
        isDelta: false,
        sort: toolSort,
      });
    }
    // The message continues after the tools: it moves below them.
    const contentSort = sort++;
    let content = '';
    const deltas = 123 + (round < 6 ? 1 : 0);
    for (let delta = 0; delta < deltas; delta++) {
      const chunk = delta % 30 === 0 ? `\n\n### ${words(next, 2)}\n\n- ` : words(next, 1 + Math.floor(next() * 3));
      content += chunk;
      lines.push({
        id,
        role: 'assistant',
        content: chunk,
        graphPath,
        isInProcess: true,
        isDelta: true,
        sort: contentSort,
      });
    }
    lines.push({
      id,
      role: 'assistant',
      content,
      thinking,
      graphPath,
      isStructuredResponse: isFinal,
      isInProcess: false,
      isDelta: false,
      sort: contentSort,
    });
    if (isFinal) answer = content;
  }
  lines.push({
    id: '__state__',
    role: 'assistant',
    state: {
      messages: [
        {
          lc: 1,
          type: 'constructor',
          id: ['langchain', 'schema', 'messages', 'HumanMessage'],
          kwargs: { content: question, additional_kwargs: {}, response_metadata: {} },
        },
        {
          lc: 1,
          type: 'constructor',
          id: ['langchain', 'schema', 'messages', 'AIMessage'],
          kwargs: { content: answer, additional_kwargs: {}, response_metadata: {}, tool_calls: [] },
        },
      ],
    },
    isDelta: false,
    sort,
  });
  lines.push({
    id: '__usage__',
    type: 'usage',
    usage: {
      models: ['m'],
      llmCalls: 21,
      inputTokens: 48412,
      outputTokens: 6280,
      cacheWriteTokens: 0,
      cacheReadTokens: 12000,
      totalTokens: 66692,
    },
  });
  return lines.map((line) => JSON.stringify(line));
}

// ---------------------------------------------------------------------------------------------
// Measurement

/** The bytes cut into chunks of 1 to 4,096 bytes, the same cut for every pass. */
function chunksOf(bytes: Uint8Array, seed: number): Uint8Array[] {
  const next = random(seed ^ 0x5eed);
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length;) {
    const size = 1 + Math.floor(next() * 4096);
    chunks.push(bytes.subarray(start, start + size));
    start += size;
  }
  return chunks;
}

function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

/**
 * Lines between two snapshot reads of the modelled UI. A UI reads once per animation frame; a
 * 2,000-line answer streams for many seconds, so one read per 16 lines is far more often than
 * a real UI reads, and the measurement errs on the side of cost.
 */
const LINES_PER_READ = 16;

/** The chat UI's path: bytes → `readNdjson` → `apply`, a subscriber, and a snapshot read per "frame". */
async function ingest(chunks: readonly Uint8Array[]): Promise<ThreadStore> {
  const store = createThreadStore();
  let dirty = false;
  store.subscribe(() => {
    dirty = true;
  });
  let count = 0;
  for await (const line of readNdjson(bodyOf(chunks))) {
    store.apply(line);
    if (++count % LINES_PER_READ === 0 && dirty) {
      dirty = false;
      store.getSnapshot();
    }
  }
  store.getSnapshot();
  return store;
}

/** The floor: `JSON.parse` on each line of the already decoded text. */
function jsonParseFloor(text: string): number {
  let count = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    JSON.parse(line);
    count++;
  }
  return count;
}

/**
 * Time in `apply()` per line for the first and the last 10% of `values`, in one pass over a
 * fresh store with the same subscriber and reads as {@link ingest} (reads are not timed).
 */
function decileTimes(values: readonly unknown[]): { first: number; last: number } {
  const decile = Math.floor(values.length / 10);
  const lastStart = values.length - decile;
  const store = createThreadStore();
  let dirty = false;
  store.subscribe(() => {
    dirty = true;
  });
  let first = 0;
  let last = 0;
  for (let start = 0; start < values.length; start += LINES_PER_READ) {
    const end = Math.min(start + LINES_PER_READ, values.length);
    const before = performance.now();
    for (let index = start; index < end; index++) store.apply(values[index]);
    const elapsed = performance.now() - before;
    // Blocks straddling a decile boundary count in proportion to their lines in it.
    first += (elapsed * Math.max(0, Math.min(end, decile) - start)) / (end - start);
    last += (elapsed * Math.max(0, end - Math.max(start, lastStart))) / (end - start);
    if (dirty) {
      dirty = false;
      store.getSnapshot();
    }
  }
  return { first: first / decile, last: last / (values.length - lastStart) };
}

/** The three arrival orders of the placement measurement. */
type Arrival = 'ascending' | 'descending' | 'random';

/**
 * One line per message, `sort` 0…count-1, in the given arrival order: a thread whose history is
 * replayed newest first, or whose lines a server sends as they finish rather than as they started.
 */
function placementLines(count: number, arrival: Arrival, seed: number): unknown[] {
  const sorts = Array.from({ length: count }, (_, index) => index);
  if (arrival === 'descending') sorts.reverse();
  if (arrival === 'random') {
    const next = random(seed ^ 0x50f7);
    for (let index = count - 1; index > 0; index--) {
      const other = Math.floor(next() * (index + 1));
      [sorts[index], sorts[other]] = [sorts[other]!, sorts[index]!];
    }
  }
  return sorts.map((sort) => ({
    id: `m${sort}`,
    role: 'assistant',
    content: 'Revenue grew 12% in EU',
    isDelta: false,
    sort,
  }));
}

/**
 * Lines between two snapshot reads when a whole history arrives at once (a resubscribe's replay,
 * a reopened thread): thousands of lines land within one animation frame. Reads cost in
 * proportion to the thread whatever the order, so reading as often as {@link LINES_PER_READ}
 * would hide the cost of placement, which is what this measures.
 */
const PLACEMENT_LINES_PER_READ = 1024;

/** Applies `values` with a subscriber and a snapshot read per {@link PLACEMENT_LINES_PER_READ} lines; returns the milliseconds. */
function placementTime(values: readonly unknown[]): number {
  const start = performance.now();
  const store = createThreadStore();
  let dirty = false;
  store.subscribe(() => {
    dirty = true;
  });
  for (let index = 0; index < values.length; index++) {
    store.apply(values[index]);
    if ((index + 1) % PLACEMENT_LINES_PER_READ === 0 && dirty) {
      dirty = false;
      store.getSnapshot();
    }
  }
  const { messages } = store.getSnapshot();
  const elapsed = performance.now() - start;
  if (messages.length !== values.length || messages.some((message, index) => message.sort !== index)) {
    throw new Error('chat-ingest: the store placed the messages out of order');
  }
  return elapsed;
}

/**
 * Ratios of placement time, random and descending arrival over ascending, `samples` pairs of
 * passes in all (half of them for each order).
 */
function placementRatios(
  count: number,
  seed: number,
  samples: number,
): { randomRatios: number[]; descendingRatios: number[] } {
  const arrivals = {
    ascending: placementLines(count, 'ascending', seed),
    descending: placementLines(count, 'descending', seed),
    random: placementLines(count, 'random', seed),
  };
  for (let index = 0; index < 3; index++) for (const arrival of Object.values(arrivals)) placementTime(arrival);
  const randomRatios: number[] = [];
  const descendingRatios: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const other = sample % 2 === 0 ? arrivals.random : arrivals.descending;
    // Each ratio is taken within one pair of passes, alternating which goes first, so a machine
    // getting busier shifts both of its times alike.
    let ascendingMs: number;
    let otherMs: number;
    if (sample % 4 < 2) {
      ascendingMs = placementTime(arrivals.ascending);
      otherMs = placementTime(other);
    } else {
      otherMs = placementTime(other);
      ascendingMs = placementTime(arrivals.ascending);
    }
    (other === arrivals.random ? randomRatios : descendingRatios).push(otherMs / ascendingMs);
  }
  return { randomRatios, descendingRatios };
}

/**
 * Runs the benchmark and returns its medians. Takes a few seconds.
 *
 * Each throughput sample times the whole path and the floor back to back (alternating which goes
 * first) and keeps their ratio, so a machine that gets busier during the run shifts both alike;
 * the decile ratio is likewise taken within each pass. Results are medians over all samples.
 */
export async function runChatIngestBenchmark(options: ChatIngestOptions = {}): Promise<ChatIngestResult> {
  const {
    runs = 7,
    throughputRepetitions = 20,
    decileRepetitions = 150,
    seed = 1,
    placementMessages = 20_000,
    placementRepetitions = 2,
  } = options;
  // First, on a fresh heap, in a function of its own: its 60,000 lines are garbage before the
  // ingest path is timed, and the ingest path's garbage is not collected during placement.
  const { randomRatios, descendingRatios } = placementRatios(placementMessages, seed, 2 * runs * placementRepetitions);

  const lines = buildTranscript(seed);
  const text = lines.join('\n') + '\n';
  const bytes = new TextEncoder().encode(text);
  const chunks = chunksOf(bytes, seed);
  const values = lines.map((line) => JSON.parse(line) as unknown);

  // The path must do the real work before it is timed.
  const check = (await ingest(chunks)).getSnapshot();
  if (
    check.status !== 'ready' ||
    check.messages.length !== 31 ||
    !check.finalAnswer ||
    jsonParseFloor(text) !== lines.length
  ) {
    throw new Error(`chat-ingest: unexpected result (status ${check.status}, ${check.messages.length} messages)`);
  }

  // Warm-up: let the JIT settle on every path that is timed.
  for (let index = 0; index < 15; index++) {
    await ingest(chunks);
    jsonParseFloor(text);
    decileTimes(values);
  }

  const ingestTimes: number[] = [];
  const parseRatios: number[] = [];
  const decileRatios: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (let repetition = 0; repetition < throughputRepetitions; repetition++) {
      let ingestMs: number;
      let floorMs: number;
      if (repetition % 2 === 0) {
        let start = cpuTime();
        await ingest(chunks);
        ingestMs = cpuTime() - start;
        start = cpuTime();
        jsonParseFloor(text);
        floorMs = cpuTime() - start;
      } else {
        let start = cpuTime();
        jsonParseFloor(text);
        floorMs = cpuTime() - start;
        start = cpuTime();
        await ingest(chunks);
        ingestMs = cpuTime() - start;
      }
      ingestTimes.push(ingestMs);
      parseRatios.push(ingestMs / floorMs);
    }
    for (let repetition = 0; repetition < decileRepetitions; repetition++) {
      const { first, last } = decileTimes(values);
      if (first > 0) decileRatios.push(last / first);
    }
  }

  return {
    mbPerSecond: bytes.length / 1e6 / (median(ingestTimes) / 1000),
    ratioToJsonParse: median(parseRatios),
    lastToFirstDecileRatio: median(decileRatios),
    randomToAscendingRatio: median(randomRatios),
    descendingToAscendingRatio: median(descendingRatios),
    lines: lines.length,
    bytes: bytes.length,
  };
}

/** Prints the results; the script entry point. */
export async function main(): Promise<void> {
  const result = await runChatIngestBenchmark();
  const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER BUDGET');
  console.log(`chat-ingest: ${result.lines} lines, ${(result.bytes / 1024).toFixed(0)} KiB`);
  console.log(`  throughput          ${result.mbPerSecond.toFixed(1)} MB/s`);
  console.log(
    `  vs JSON.parse floor ${result.ratioToJsonParse.toFixed(2)}× (target ≤ 3) ${verdict(result.ratioToJsonParse <= 3)}`,
  );
  console.log(
    `  last/first decile   ${result.lastToFirstDecileRatio.toFixed(2)}× per line (target ≤ 1.2) ${verdict(result.lastToFirstDecileRatio <= 1.2)}`,
  );
  console.log(
    `  random/ascending    ${result.randomToAscendingRatio.toFixed(2)}× placement (target ≤ 3) ${verdict(result.randomToAscendingRatio <= 3)}`,
  );
  console.log(
    `  descending/asc.     ${result.descendingToAscendingRatio.toFixed(2)}× placement (target ≤ 3) ${verdict(result.descendingToAscendingRatio <= 3)}`,
  );
}

// Run as a script (node, tsx, or bundled by esbuild), not when imported by a test.
if (typeof process !== 'undefined' && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
