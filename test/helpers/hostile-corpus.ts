/**
 * Hostile inputs, one home: what an attacker who controls the agent's answers, the chat stream,
 * a browser's requests or a data query may send. Tests read these exports, so a new hostile input
 * is one line here and every test that reads its list covers it.
 *
 * Exports are named by what they attack: tool names, stream floods, reconnect scripts, endless bodies,
 * data queries, chart specs.
 */
import type { ConnectionScript } from './chat-server';

/**
 * Names that are members of `Object.prototype`: a lookup `map[name]` on a plain object finds the
 * prototype's member (a function, or the prototype itself) when the map has no entry of its own.
 * Used as tool names and as message ids.
 */
export const HOSTILE_TOOL_NAMES: readonly string[] = [
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
];

/**
 * Ids of tool calls: every hostile name, `__proto__` and the other reserved-looking `__name__` ids
 * included (a line that carries a tool call is one, whatever its id).
 */
export const HOSTILE_MESSAGE_IDS: readonly string[] = HOSTILE_TOOL_NAMES;

/**
 * A recorded answer with two calls of each tool of {@link HOSTILE_TOOL_NAMES}: one complete (start
 * and result lines; ids {@link HOSTILE_MESSAGE_IDS} while they last), one still running at the
 * end; then a final answer `Done.`.
 */
export function hostileToolTranscript(chatId = '00000000-0000-4000-8000-000000000bad'): string {
  const graphPath = ['service_data_analyst_agent', 'tools'];
  const lines: unknown[] = [
    { id: '__cutoff__', role: 'assistant', state: { isStreaming: true, chatId }, sort: 0 },
    { id: '1767225600000-message', role: 'user', content: 'Which tools?', isDelta: false, sort: 1 },
  ];
  HOSTILE_TOOL_NAMES.forEach((name, index) => {
    const done = HOSTILE_MESSAGE_IDS[index] ?? `done-${index}`;
    const toolCall = { name, input: JSON.stringify({ name }) };
    const call = { role: 'assistant', graphPath, isDelta: false, sort: index + 2 };
    lines.push({ ...call, id: done, toolCall, isInProcess: true });
    lines.push({
      ...call,
      id: done,
      toolCall: { ...toolCall, result: JSON.stringify({ ok: name }) },
      isInProcess: false,
    });
    lines.push({ ...call, id: `running-${index}`, toolCall, isInProcess: true });
  });
  lines.push({ id: 'answer', role: 'assistant', content: 'Done.', graphPath: ['final'], isDelta: false, sort: 100 });
  const usage = {
    models: ['m'],
    llmCalls: 1,
    inputTokens: 1,
    outputTokens: 1,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
  };
  lines.push({ id: '__usage__', type: 'usage', usage: { ...usage, totalTokens: 2 } });
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

/**
 * What is wrong with how `container` shows {@link hostileToolTranscript}: one entry per tool name
 * whose two calls are not the generic tool view ("Used a tool", complete and stopped).
 */
export function hostileToolViewProblems(container: ParentNode): string[] {
  return HOSTILE_TOOL_NAMES.flatMap((name) => {
    const calls = [...container.querySelectorAll<HTMLElement>('[data-part="tool-call"]')].filter(
      (part) => part.dataset.tool === name,
    );
    const shown = calls.map((part) => [
      part.dataset.state,
      part.querySelector('.service-chat-step-label')?.textContent ?? part.textContent,
    ]);
    // The generic step, in human words (a tool's name is never shown); the call left without its
    // result when the thread's answer ended is stopped.
    const wanted = [
      ['complete', 'Used a tool'],
      ['stopped', 'Used a tool'],
    ];
    return JSON.stringify(shown) === JSON.stringify(wanted) ? [] : [`${name}: ${JSON.stringify(shown)}`];
  });
}

/** How many tiny deltas {@link deltaFlood} streams by default: what one hostile network chunk may hold. */
export const DELTA_FLOOD_SIZE = 100_000;

/** What {@link deltaFlood} streams. */
export interface DeltaFlood {
  /** The whole answer as one network chunk: `__cutoff__`, the deltas of one final answer, `__usage__`. */
  body: Uint8Array;
  /** The answer's whole text: every delta's `content`, in order. */
  text: string;
}

/** One answer streamed as `deltas` deltas of one character each, encoded as one chunk. */
export function deltaFlood(deltas = DELTA_FLOOD_SIZE, chatId = '00000000-0000-4000-8000-00000000f100'): DeltaFlood {
  const lines: string[] = [
    JSON.stringify({ id: '__cutoff__', role: 'assistant', state: { isStreaming: true, chatId }, sort: 0 }),
  ];
  let text = '';
  for (let index = 0; index < deltas; index++) {
    const content = String.fromCharCode(97 + (index % 26));
    text += content;
    const isInProcess = index < deltas - 1;
    lines.push(
      JSON.stringify({
        id: 'flood',
        role: 'assistant',
        content,
        graphPath: ['final'],
        isInProcess,
        isDelta: true,
        sort: 2,
      }),
    );
  }
  const usage = { models: ['m'], llmCalls: 1, inputTokens: 1, outputTokens: deltas, cacheWriteTokens: 0 };
  lines.push(
    JSON.stringify({ id: '__usage__', type: 'usage', usage: { ...usage, cacheReadTokens: 0, totalTokens: 1 } }),
  );
  return { body: new TextEncoder().encode(`${lines.join('\n')}\n`), text };
}

/** Connection patterns that would make a client reconnect in a loop. */
export const RECONNECT_SCRIPTS = {
  /** One new line per connection, then a drop (452 connections in 8 s against the old client); ends after 60. */
  oneNewLinePerConnection: (index) => ({ lines: index + 1, then: index < 60 ? 'drop' : 'end' }),
  /** Nothing new after the first line, every time: fruitless resends. */
  nothingNew: () => ({ lines: 1, then: 'drop' }),
  /** One new line per connection, the third connection held open until released, then as above. */
  heldThirdConnection: (index) => ({ lines: index + 1, then: index === 2 ? 'hold' : index < 60 ? 'drop' : 'end' }),
} satisfies Record<string, ConnectionScript>;

/**
 * Request bodies that never end (chunked, no `Content-Length`), by route: each chunk is `chunk`,
 * sent again and again after `start`; the route must answer `status` with `code` while the client
 * is still sending, then close the connection.
 */
export const ENDLESS_BODIES: readonly {
  name: string;
  route: 'chat' | 'session';
  contentType: string;
  start: string;
  chunk: string;
  status: number;
  code: string;
}[] = [
  {
    name: 'a chat question past the chat proxy’s 1 MiB',
    route: 'chat',
    contentType: 'application/json',
    start: '{"input":"',
    chunk: 'x'.repeat(16 * 1024),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'an embed session request past the session route’s 16 KiB',
    route: 'session',
    contentType: 'application/json',
    start: '{"surface":"chat","padding":"',
    chunk: 'x'.repeat(4 * 1024),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'a chat question of tiny chunks',
    route: 'chat',
    contentType: 'application/json',
    start: '{"input":"',
    chunk: 'x'.repeat(64),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'an endless form post to the chat proxy (refused unread)',
    route: 'chat',
    contentType: 'text/plain',
    start: '',
    chunk: 'x'.repeat(16 * 1024),
    status: 415,
    code: 'unsupported_media_type',
  },
];

/** Data API queries that ask for more than one answer should hold. */
export const HOSTILE_DATA_QUERIES = {
  /** Twenty million rows (250 MB of NDJSON, 330 MB of memory in an emulator without caps). */
  manyRows: 'SELECT * FROM range(20000000)',
  /** `rows` rows of `width` bytes each. */
  wideRows: (rows: number, width: number) => `SELECT repeat('x', ${width}) AS wide FROM range(${rows})`,
  /** Every order id in one `/v1/load` query (`limit` up to the service's 50,000). */
  everyOrderId: (limit: number) => ({ dimensions: ['orders.id'], limit }),
  /** Orders with their names, wider rows for `/v1/load`. */
  namedOrders: (limit: number) => ({
    dimensions: ['orders.id', 'orders.customer_name', 'orders.product_name', 'orders.status'],
    limit,
  }),
};

// Chart specs (the agent's Vega-Lite).

/** Where every URL of the chart cases points: any request to it is a leak. */
export const EVIL_ORIGIN = 'https://evil.test';

/** A CSS `url()` colour naming `place`, as the SVG renderer would write it into `fill` or `stroke`. */
const url = (place: string) => `url(${EVIL_ORIGIN}/${place}.svg#paint)`;

/** A bar chart of the `ordersByStatus` rows (`status`, `orders`, `revenue`), for the cases to build on. */
export const BARS = {
  mark: 'bar',
  encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } },
} as const;

/** What a hostile chart spec tries: to make the page send a request, or to freeze it. */
export type ChartThreat = 'request' | 'freeze';

/** A hostile Vega-Lite spec for `ResultChart`. */
export interface HostileChartSpec {
  /** What it tries, in words. */
  name: string;
  threat: ChartThreat;
  spec: Record<string, unknown>;
  /**
   * Rows to draw it with instead of the `ordersByStatus` fixture: that many rows of `id` (all
   * distinct), `status` (`completed`, `cancelled`, ...), `orders` and `day` (a Timestamp).
   */
  rows?: number;
}

const seq = (length: number) => Array.from({ length }, (_, index) => `f${index}`);

/** Agent-supplied chart specs that must neither reach out nor freeze the page (one line each). */
// prettier-ignore
export const HOSTILE_CHART_SPECS: readonly HostileChartSpec[] = [
  { name: 'mark fill url()', threat: 'request', spec: { ...BARS, mark: { type: 'bar', fill: url('mark-fill') } } },
  { name: 'mark stroke url()', threat: 'request', spec: { ...BARS, mark: { type: 'bar', stroke: url('mark-stroke'), strokeWidth: 2 } } },
  { name: 'mark color url()', threat: 'request', spec: { ...BARS, mark: { type: 'bar', color: url('mark-color') } } },
  { name: 'escaped url() (\\75rl)', threat: 'request', spec: { ...BARS, mark: { type: 'bar', fill: `\\75rl(${EVIL_ORIGIN}/escaped.svg#p)` } } },
  { name: 'encoding.color value', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { value: url('color-value') } } } },
  { name: 'encoding.fill value', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, fill: { value: url('fill-value') } } } },
  { name: 'encoding.stroke value', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, stroke: { value: url('stroke-value') } } } },
  { name: 'encoding.color condition value', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { condition: { test: 'true', value: url('condition') }, value: 'red' } } } },
  { name: 'encoding.color datum', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { datum: url('datum') } } } },
  { name: 'encoding.fill datum without a scale', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, fill: { datum: url('datum-no-scale'), scale: null } } } },
  { name: 'colour from a calculated field without a scale', threat: 'request', spec: { ...BARS, transform: [{ calculate: `'${url('calculated')}'`, as: 'paint' }], encoding: { ...BARS.encoding, color: { field: 'paint', scale: null } } } },
  { name: 'colour scale range of url()', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { field: 'status', scale: { range: [url('range-a'), url('range-b')] } } } } },
  { name: 'colour scale range from a field', threat: 'request', spec: { ...BARS, transform: [{ calculate: `'${url('range-field')}'`, as: 'paint' }], encoding: { ...BARS.encoding, color: { field: 'status', scale: { range: { field: 'paint' } } } } } },
  { name: 'mark fill expression', threat: 'request', spec: { ...BARS, mark: { type: 'bar', fill: { expr: `'${url('expr')}'` } } } },
  { name: 'config.mark.fill', threat: 'request', spec: { ...BARS, config: { mark: { fill: url('config-mark') } } } },
  { name: 'config.bar.stroke', threat: 'request', spec: { ...BARS, config: { bar: { stroke: url('config-bar') } } } },
  { name: 'config.background', threat: 'request', spec: { ...BARS, config: { background: url('config-background') } } },
  { name: 'top-level background', threat: 'request', spec: { ...BARS, background: url('background') } },
  { name: 'config.view.fill and stroke', threat: 'request', spec: { ...BARS, config: { view: { fill: url('view-fill'), stroke: url('view-stroke') } } } },
  { name: 'config.style fill', threat: 'request', spec: { ...BARS, mark: { type: 'bar', style: 'evil' }, config: { style: { evil: { fill: url('style') } } } } },
  { name: 'config.range.category', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { field: 'status' } }, config: { range: { category: [url('category')] } } } },
  { name: 'title.color and subtitleColor', threat: 'request', spec: { ...BARS, title: { text: 'T', subtitle: 'S', color: url('title'), subtitleColor: url('subtitle') } } },
  { name: 'axis colours', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, x: { ...BARS.encoding.x, axis: { labelColor: url('label'), gridColor: url('grid'), domainColor: url('domain'), tickColor: url('tick'), titleColor: url('axis-title') } } } } },
  { name: 'config.axis and legend colours', threat: 'request', spec: { ...BARS, encoding: { ...BARS.encoding, color: { field: 'status' } }, config: { axis: { labelColor: url('config-axis') }, legend: { labelColor: url('legend'), symbolFillColor: url('symbol') } } } },
  { name: 'gradient stops', threat: 'request', spec: { ...BARS, mark: { type: 'bar', color: { gradient: 'linear', stops: [{ offset: 0, color: url('stop') }, { offset: 1, color: 'red' }] } } } },
  { name: 'mark href', threat: 'request', spec: { ...BARS, mark: { type: 'bar', href: `${EVIL_ORIGIN}/href` } } },
  { name: 'encoding href', threat: 'request', spec: { ...BARS, transform: [{ calculate: `'${EVIL_ORIGIN}/href-field'`, as: 'link' }], encoding: { ...BARS.encoding, href: { field: 'link' } } } },
  { name: 'image marks', threat: 'request', spec: { layer: [BARS, { mark: { type: 'image', width: 20, height: 20, url: `${EVIL_ORIGIN}/image.png` }, encoding: { ...BARS.encoding, url: { value: `${EVIL_ORIGIN}/image-channel.png` } } }] } },
  { name: 'mark cursor url()', threat: 'request', spec: { ...BARS, mark: { type: 'bar', cursor: `url(${EVIL_ORIGIN}/cursor.png), pointer` } } },
  { name: 'cursor parameter', threat: 'request', spec: { ...BARS, params: [{ name: 'cursor', value: `url(${EVIL_ORIGIN}/cursor-param.png), auto` }] } },
  { name: 'config.locale', threat: 'request', spec: { ...BARS, config: { locale: { number: { decimal: '.', thousands: ',', grouping: [3], currency: [url('locale'), ''] }, time: { dateTime: url('time') } } } } },
  { name: 'usermeta with URLs', threat: 'request', spec: { ...BARS, usermeta: { embedOptions: { loader: { baseURL: `${EVIL_ORIGIN}/` }, config: `${EVIL_ORIGIN}/config.json` }, image: url('usermeta') } } },
  { name: 'data url', threat: 'request', spec: { ...BARS, data: { url: `${EVIL_ORIGIN}/data.json` }, transform: [{ lookup: 'status', from: { data: { url: `${EVIL_ORIGIN}/lookup.json` }, key: 'status', fields: ['x'] } }] } },
  { name: 'sequence(0, 50000000) flattened', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: 'sequence(0, 50000000)', as: 'n' }, { flatten: ['n'] }] } },
  { name: 'a sequence data generator of 1e8', threat: 'freeze', spec: { ...BARS, data: { sequence: { start: 0, stop: 1e8, as: 'orders' } }, encoding: { y: { field: 'orders', type: 'quantitative' } } } },
  { name: 'a 1e7 x 1e7 canvas', threat: 'freeze', spec: { ...BARS, width: 1e7, height: 1e7 } },
  { name: 'steps of 1e7 pixels', threat: 'freeze', spec: { ...BARS, width: { step: 1e7 }, config: { view: { continuousWidth: 1e7, continuousHeight: 1e7 } } } },
  { name: 'bin with maxbins 1e9', threat: 'freeze', spec: { mark: 'bar', encoding: { x: { field: 'orders', bin: { maxbins: 1e9 } }, y: { aggregate: 'count' } } } },
  { name: 'bin with a step of 1e-9', threat: 'freeze', spec: { mark: 'bar', encoding: { x: { field: 'orders', bin: { step: 1e-9 } }, y: { aggregate: 'count' } } } },
  { name: 'tickCount 1e7', threat: 'freeze', spec: { ...BARS, encoding: { ...BARS.encoding, y: { ...BARS.encoding.y, axis: { tickCount: 1e7 } } } } },
  { name: 'repeat over 5,000 fields', threat: 'freeze', spec: { repeat: seq(5000), spec: { mark: 'bar', encoding: { x: { field: { repeat: 'repeat' }, type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } } } } },
  { name: 'facet over 3,000 ids', threat: 'freeze', rows: 3000, spec: { ...BARS, encoding: { ...BARS.encoding, facet: { field: 'id', type: 'nominal' } } } },
  { name: 'facet over a generated field', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: 'sequence(0, 3000)', as: 'n' }, { flatten: ['n'] }], encoding: { ...BARS.encoding, row: { field: 'n', type: 'nominal' } } } },
  { name: 'concat of 5,000 charts', threat: 'freeze', spec: { concat: Array.from({ length: 5000 }, () => BARS) } },
  { name: 'timeUnit over 1e6 rows', threat: 'freeze', rows: 1_000_000, spec: { mark: 'line', encoding: { x: { field: 'day', timeUnit: 'yearmonthdatehoursminutesseconds', type: 'temporal' }, y: { aggregate: 'count' } } } },
  { name: 'timeUnit over 1e6 generated rows', threat: 'freeze', spec: { mark: 'line', transform: [{ calculate: 'sequence(0, 1000000)', as: 't' }, { flatten: ['t'] }, { calculate: 'datetime(2025, 0, 1) + datum.t * 1000', as: 'when' }], encoding: { x: { field: 'when', timeUnit: 'yearmonthdatehoursminutesseconds', type: 'temporal' }, y: { aggregate: 'count' } } } },
  { name: 'impute over 1e8 keys', threat: 'freeze', spec: { mark: 'line', transform: [{ impute: 'orders', key: 'k', keyvals: { start: 0, stop: 1e8 } }], encoding: { x: { field: 'k', type: 'quantitative' }, y: { field: 'orders', type: 'quantitative' } } } },
  { name: 'timeSequence of every millisecond', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: "timeSequence('millisecond', 0, 1e12)", as: 'n' }, { flatten: ['n'] }] } },
  { name: 'pad() to a gigabyte', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: "pad('', 1e9)", as: 'big' }] } },
  { name: 'format() to a gigabyte', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: "format(1, '01000000000d')", as: 'big' }] } },
  { name: 'axis format to a gigabyte', threat: 'freeze', spec: { ...BARS, encoding: { ...BARS.encoding, y: { ...BARS.encoding.y, axis: { format: '01000000000d' } } } } },
  { name: 'join() of a generated array', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: `join(sequence(0, 50000), '${'x'.repeat(10_000)}')`, as: 'big' }] } },
  { name: 'a backtracking regular expression in a filter', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: `'${'a'.repeat(40)}!'`, as: 's' }, { filter: 'test(/(a+)+$/, datum.s) || true' }] } },
  { name: 'backtracking regexp() in replace() and split()', threat: 'freeze', spec: { ...BARS, transform: [{ calculate: `replace('${'a'.repeat(40)}!', regexp('(a|a)*$', 'g'), 'x')`, as: 's' }, { calculate: `split('${'a'.repeat(40)}!', regexp('(a+)+b'))`, as: 'parts' }] } },
  { name: 'a backreference that backtracks', threat: 'freeze', spec: { ...BARS, transform: [{ filter: `test(/^(a*)*\\1$/, datum.status + '${'a'.repeat(40)}!')` }] } },
  { name: 'impute of every id in every day', threat: 'freeze', rows: 3000, spec: { mark: 'line', transform: [{ impute: 'orders', key: 'id', groupby: ['day'] }], encoding: { x: { field: 'id', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' }, detail: { field: 'day', type: 'nominal' } } } },
  { name: 'impute in an encoding, every id in every day', threat: 'freeze', rows: 3000, spec: { mark: 'line', encoding: { x: { field: 'id', type: 'nominal' }, y: { field: 'orders', type: 'quantitative', impute: { value: 0 } }, detail: { field: 'day', type: 'nominal' } } } },
  { name: 'fold over 1,000 fields', threat: 'freeze', rows: 3000, spec: { mark: 'bar', transform: [{ fold: seq(1000) }], encoding: { x: { field: 'key', type: 'nominal' }, y: { aggregate: 'count' } } } },
  { name: 'pivot of every id in every day', threat: 'freeze', rows: 3000, spec: { mark: 'bar', transform: [{ pivot: 'id', value: 'orders', groupby: ['day'] }], encoding: { x: { field: 'day', type: 'nominal' }, y: { field: '0', type: 'quantitative' } } } },
  { name: 'density of every id', threat: 'freeze', rows: 3000, spec: { mark: 'area', transform: [{ density: 'orders', groupby: ['id'] }], encoding: { x: { field: 'value', type: 'quantitative' }, y: { field: 'density', type: 'quantitative' } } } },
  { name: 'density with 1e9 steps', threat: 'freeze', spec: { mark: 'area', transform: [{ density: 'orders', steps: 1e9 }], encoding: { x: { field: 'value', type: 'quantitative' }, y: { field: 'density', type: 'quantitative' } } } },
  { name: 'quantile step 1e-9', threat: 'freeze', spec: { mark: 'point', transform: [{ quantile: 'orders', step: 1e-9 }], encoding: { x: { field: 'prob', type: 'quantitative' }, y: { field: 'value', type: 'quantitative' } } } },
];
