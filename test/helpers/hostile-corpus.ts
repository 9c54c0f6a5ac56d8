/**
 * Hostile inputs, one home: what an attacker who controls the agent's answers, the chat stream,
 * a browser's requests or a data query may send. Tests read these exports, so a new hostile input
 * is one line here and every test that reads its list covers it.
 *
 * Exports are named by what they attack; other families (chart specs...) add their own exports.
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

/** Message ids the thread store keeps as messages: the hostile names that are not of the reserved `__name__` form. */
export const HOSTILE_MESSAGE_IDS: readonly string[] = HOSTILE_TOOL_NAMES.filter(
  (name) => !(name.startsWith('__') && name.endsWith('__')),
);

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
 * whose two calls are not the generic tool view (`Tool <name>` complete, `Running <name>…`).
 */
export function hostileToolViewProblems(container: ParentNode): string[] {
  return HOSTILE_TOOL_NAMES.flatMap((name) => {
    const calls = [...container.querySelectorAll<HTMLElement>('[data-part="tool-call"]')].filter(
      (part) => part.dataset.tool === name,
    );
    const shown = calls.map((part) => [
      part.dataset.state,
      part.querySelector('.service-chat-tool-title')?.textContent ?? part.textContent,
    ]);
    const wanted = [
      ['complete', `Tool ${name}`],
      ['running', `Running ${name}…`],
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
