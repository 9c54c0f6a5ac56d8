import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import {
  createThreadStore,
  selectFinalAnswer,
  type ChatMessage,
  type ThreadStore,
} from '../../../src/core/thread-store';
import { AGENT_NODE, STREAMING_IN_PROGRESS, createRpcAuthError } from '../../../src/core/protocol/chat';
import {
  ServiceAuthError,
  ServiceError,
  ServiceHttpError,
  ServiceStreamError,
  StreamingInProgressError,
} from '../../../src/core/errors';

const CHAT_ID = 'a1b2c3d4-08d7-40b9-8b1c-e7e3a698647e';
const TOOLS = [AGENT_NODE, 'tools'];

const META_RESULT = JSON.stringify({
  cubes: [
    {
      name: 'orders_view',
      type: 'view',
      title: 'Orders',
      members: [{ name: 'orders_view.revenue', title: 'Revenue', type: 'number', aggType: 'sum' }],
    },
  ],
  searchQuery: 'revenue trends',
});

const USAGE = {
  models: ['m'],
  llmCalls: 7,
  inputTokens: 18412,
  outputTokens: 2280,
  cacheWriteTokens: 0,
  cacheReadTokens: 0,
  totalTokens: 20692,
};

/** The example sequence of behaviour 1, completed with a final answer. */
const EXAMPLE = [
  { id: '__cutoff__', role: 'assistant', state: { isStreaming: false, chatId: CHAT_ID }, sort: 0 },
  {
    id: '1732512345678-message',
    role: 'user',
    content: 'Show me revenue trends for the last 6 months',
    isDelta: false,
    sort: 1,
  },
  {
    id: 'cdfe1a84',
    role: 'assistant',
    content: '',
    thinking: 'The user wants ...',
    graphPath: [AGENT_NODE],
    isStructuredResponse: false,
    isInProcess: true,
    isDelta: true,
    sort: 3,
  },
  {
    id: '4849adb2',
    role: 'assistant',
    toolCall: { name: 'serviceMeta', input: '{"searchQuery":"revenue trends"}' },
    isInProcess: true,
    graphPath: TOOLS,
    isDelta: false,
    sort: 5,
  },
  {
    id: '4849adb2',
    role: 'assistant',
    toolCall: { name: 'serviceMeta', input: '{"searchQuery":"revenue trends"}', result: META_RESULT },
    isInProcess: false,
    graphPath: TOOLS,
    isDelta: false,
    sort: 6,
  },
  {
    id: 'f1a2',
    role: 'assistant',
    content: 'Revenue grew 12% ',
    graphPath: ['final'],
    isInProcess: true,
    isDelta: true,
    sort: 8,
  },
  {
    id: 'f1a2',
    role: 'assistant',
    content: 'over six months.',
    graphPath: ['final'],
    isInProcess: false,
    isDelta: true,
    sort: 8,
  },
  {
    id: '__state__',
    role: 'assistant',
    state: {
      messages: [
        {
          lc: 1,
          type: 'constructor',
          id: ['langchain', 'schema', 'messages', 'HumanMessage'],
          kwargs: { content: 'Show me revenue trends for the last 6 months' },
        },
      ],
    },
    isDelta: false,
    sort: 10,
  },
  { id: '__usage__', type: 'usage', usage: USAGE },
];

function ids(store: ThreadStore): string[] {
  return store.getSnapshot().messages.map((message) => message.id);
}

function message(store: ThreadStore, id: string): ChatMessage {
  const found = store.getSnapshot().messages.find((m) => m.id === id);
  if (!found) throw new Error(`no message ${id}`);
  return found;
}

function assistant(id: string, fields: Record<string, unknown> = {}) {
  return { id, role: 'assistant', ...fields };
}

describe('createThreadStore', () => {
  it('starts idle and empty', () => {
    const snapshot = createThreadStore().getSnapshot();
    expect(snapshot).toEqual({
      chatId: undefined,
      messages: [],
      finalAnswer: undefined,
      usage: undefined,
      status: 'idle',
      error: undefined,
    });
  });

  it('behaviour 1 example sequence, applied line by line', () => {
    const store = createThreadStore();
    const seen: { status: string; ids: string[] }[] = [];
    for (const line of EXAMPLE) {
      store.apply(line);
      seen.push({ status: store.getSnapshot().status, ids: ids(store) });
    }
    expect(seen).toEqual([
      { status: 'streaming', ids: [] },
      { status: 'streaming', ids: ['1732512345678-message'] },
      { status: 'streaming', ids: ['1732512345678-message', 'cdfe1a84'] },
      { status: 'streaming', ids: ['1732512345678-message', 'cdfe1a84', '4849adb2'] },
      { status: 'streaming', ids: ['1732512345678-message', 'cdfe1a84', '4849adb2'] },
      { status: 'streaming', ids: ['1732512345678-message', 'cdfe1a84', '4849adb2', 'f1a2'] },
      { status: 'streaming', ids: ['1732512345678-message', 'cdfe1a84', '4849adb2', 'f1a2'] },
      { status: 'streaming', ids: ['1732512345678-message', 'cdfe1a84', '4849adb2', 'f1a2'] },
      { status: 'ready', ids: ['1732512345678-message', 'cdfe1a84', '4849adb2', 'f1a2'] },
    ]);
    const snapshot = store.getSnapshot();
    expect(snapshot.chatId).toBe(CHAT_ID);
    expect(snapshot.usage).toEqual(USAGE);
    expect(snapshot.messages[0]).toEqual({
      id: '1732512345678-message',
      role: 'user',
      content: 'Show me revenue trends for the last 6 months',
      thinking: '',
      toolCall: undefined,
      graphPath: [],
      isInProcess: false,
      isStructuredResponse: false,
      sort: 1,
    });
    expect(snapshot.messages[1]).toMatchObject({
      thinking: 'The user wants ...',
      content: '',
      graphPath: [AGENT_NODE],
      isInProcess: true,
    });
    expect(snapshot.messages[2]).toMatchObject({
      toolCall: { status: 'complete', name: 'serviceMeta', result: { kind: 'serviceMeta' } },
      isInProcess: false,
      sort: 6,
    });
    expect(snapshot.finalAnswer).toBe(snapshot.messages[3]);
    expect(snapshot.finalAnswer?.content).toBe('Revenue grew 12% over six months.');
  });

  describe('delta semantics (2.8, behaviour 1)', () => {
    it('2.8 isDelta: true appends content and thinking to the message with the same id', () => {
      const store = createThreadStore();
      store.apply(assistant('m', { content: 'Hel', thinking: 'Let me ', isDelta: true, sort: 1 }));
      store.apply(assistant('m', { content: 'lo ', isDelta: true }));
      store.apply(assistant('m', { content: 'wörld 👋', thinking: 'think.', isDelta: true }));
      expect(message(store, 'm')).toMatchObject({ content: 'Hello wörld 👋', thinking: 'Let me think.' });
      expect(store.getSnapshot().messages).toHaveLength(1);
    });

    it('2.8 isDelta: true for an unknown id creates the message', () => {
      const store = createThreadStore();
      store.apply(assistant('new', { content: 'first chunk', isDelta: true, sort: 2, isInProcess: true }));
      expect(store.getSnapshot().messages).toEqual([
        {
          id: 'new',
          role: 'assistant',
          content: 'first chunk',
          thinking: '',
          toolCall: undefined,
          graphPath: [],
          isInProcess: true,
          isStructuredResponse: false,
          sort: 2,
        },
      ]);
    });

    it('2.8 isDelta: true keeps the fields a delta leaves out and takes those it carries', () => {
      const store = createThreadStore();
      store.apply(
        assistant('m', {
          content: 'a',
          graphPath: [AGENT_NODE],
          isInProcess: true,
          isStructuredResponse: true,
          isDelta: true,
          sort: 3,
        }),
      );
      store.apply(assistant('m', { content: 'b', isDelta: true }));
      expect(message(store, 'm')).toMatchObject({
        content: 'ab',
        graphPath: [AGENT_NODE],
        isInProcess: true,
        isStructuredResponse: true,
        sort: 3,
      });
      store.apply(assistant('m', { content: 'c', isInProcess: false, graphPath: ['final'], isDelta: true }));
      expect(message(store, 'm')).toMatchObject({
        content: 'abc',
        graphPath: ['final'],
        isInProcess: false,
        isStructuredResponse: true,
        sort: 3,
      });
    });

    it('2.8 isDelta: false replaces the message whole', () => {
      const store = createThreadStore();
      store.apply(
        assistant('m', {
          content: 'draft',
          thinking: 'hmm',
          graphPath: [AGENT_NODE],
          isInProcess: true,
          isDelta: true,
          sort: 3,
        }),
      );
      store.apply(assistant('m', { content: 'Final text.', isDelta: false, sort: 3 }));
      expect(message(store, 'm')).toEqual({
        id: 'm',
        role: 'assistant',
        content: 'Final text.',
        thinking: '',
        toolCall: undefined,
        graphPath: [],
        isInProcess: false,
        isStructuredResponse: false,
        sort: 3,
      });
    });

    it('2.8 isDelta absent replaces the message whole, like isDelta: false', () => {
      const store = createThreadStore();
      store.apply(assistant('m', { content: 'one', isDelta: true, sort: 1 }));
      store.apply(assistant('m', { content: 'two', sort: 1 }));
      expect(message(store, 'm').content).toBe('two');
    });

    it('null optional fields read as absent', () => {
      const store = createThreadStore();
      store.apply(assistant('m', { content: 'x', isDelta: true, sort: 1 }));
      store.apply(
        assistant('m', { content: null, thinking: null, graphPath: null, toolCall: null, sort: null, isDelta: true }),
      );
      expect(message(store, 'm')).toMatchObject({ content: 'x', thinking: '', graphPath: [], sort: 1 });
    });
  });

  describe('dedupe by id (3, behaviour 1)', () => {
    it('3 resubscribe: replayed isDelta:false lines replace, they never duplicate a message', () => {
      const store = createThreadStore();
      for (const line of EXAMPLE) store.apply(line);
      const before = store.getSnapshot();
      // A read of the thread replays every message with isDelta: false (behaviour 1 choices).
      const replay = [
        EXAMPLE[0],
        EXAMPLE[1],
        assistant('cdfe1a84', {
          content: '',
          thinking: 'The user wants ...',
          graphPath: [AGENT_NODE],
          isStructuredResponse: false,
          isInProcess: true,
          isDelta: false,
          sort: 3,
        }),
        EXAMPLE[4],
        assistant('f1a2', {
          content: 'Revenue grew 12% over six months.',
          graphPath: ['final'],
          isInProcess: false,
          isDelta: false,
          sort: 8,
        }),
        EXAMPLE[7],
        EXAMPLE[8],
      ];
      for (const line of replay) store.apply(line);
      const after = store.getSnapshot();
      expect(after.messages.map((m) => m.id)).toEqual(before.messages.map((m) => m.id));
      expect(after.messages).toEqual(before.messages);
      // Nothing changed, so nothing is new: same snapshot, same message objects.
      expect(after).toBe(before);
    });

    it('behaviour 1 __suspended__: the resumed reply replays, then continues, without duplicates', () => {
      const store = createThreadStore();
      const lines = [
        EXAMPLE[0],
        EXAMPLE[1],
        assistant('a', { content: 'Partial', isDelta: false, isInProcess: true, sort: 3 }),
      ];
      for (const line of lines) store.apply(line);
      store.apply({
        id: '__suspended__',
        type: 'suspend',
        code: 'chat_suspended',
        retryable: true,
        messageId: '1732512345678-message',
        error: 'Server restarting',
      });
      expect(store.getSnapshot().status).toBe('suspended');
      for (const line of lines) store.apply(line);
      expect(store.getSnapshot().status).toBe('streaming');
      store.apply(assistant('a', { content: 'Partial answer.', isDelta: false, isInProcess: false, sort: 3 }));
      expect(ids(store)).toEqual(['1732512345678-message', 'a']);
      expect(message(store, 'a').content).toBe('Partial answer.');
    });
  });

  describe('order by sort (2.8, behaviour 1)', () => {
    it('2.8 sort: messages are ordered by sort, whatever the arrival order', () => {
      const store = createThreadStore();
      for (const [id, sort] of [
        ['c', 30],
        ['a', 10],
        ['d', 40],
        ['b', 20],
      ] as const)
        store.apply(assistant(id, { content: id, sort }));
      expect(ids(store)).toEqual(['a', 'b', 'c', 'd']);
    });

    it('2.8 sort: equal sort keeps the order in which the ids first arrived', () => {
      const store = createThreadStore();
      for (const id of ['x', 'y', 'z']) store.apply(assistant(id, { sort: 5 }));
      store.apply(assistant('w', { sort: 1 }));
      store.apply(assistant('x', { content: 'updated', sort: 5 }));
      expect(ids(store)).toEqual(['w', 'x', 'y', 'z']);
    });

    it('2.8 sort: a message whose sort changes moves', () => {
      const store = createThreadStore();
      for (const [id, sort] of [
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ] as const)
        store.apply(assistant(id, { sort }));
      store.apply(assistant('a', { sort: 9, isDelta: true }));
      expect(ids(store)).toEqual(['b', 'c', 'a']);
      store.apply(assistant('a', { sort: 2 }));
      // `a` arrived before `b`, so among equal sorts it comes first.
      expect(ids(store)).toEqual(['a', 'b', 'c']);
      store.apply(assistant('c', { sort: 0, isDelta: true }));
      expect(ids(store)).toEqual(['c', 'a', 'b']);
    });

    it('a message without sort goes last, and keeps its place when a later line has none', () => {
      const store = createThreadStore();
      store.apply(assistant('a', { sort: 4 }));
      store.apply(assistant('b'));
      expect(message(store, 'b').sort).toBe(4);
      store.apply(assistant('c', { sort: 2 }));
      store.apply(assistant('b', { content: 'replaced' }));
      expect(ids(store)).toEqual(['c', 'a', 'b']);
      expect(createThreadStore().getSnapshot().messages).toEqual([]);
      const empty = createThreadStore();
      empty.apply(assistant('only'));
      expect(message(empty, 'only').sort).toBe(0);
    });
  });

  describe('order by sort at scale (out-of-order arrival is placed without a linear cost per line)', () => {
    // The cost itself is a ratio of `npm run bench:check` (random and descending order at most 3x
    // ascending); these check that the order is right whatever the arrival order and read points.
    it('descending and shuffled arrival of 5,000 messages, read at many points, with moves, come out ordered', () => {
      for (const arrival of ['descending', 'shuffled'] as const) {
        const sorts = Array.from({ length: 5000 }, (_, index) => index);
        if (arrival === 'descending') sorts.reverse();
        // 7919 is prime to 5000: multiplying by it modulo 5000 shuffles 0…4999.
        else sorts.sort((a, b) => ((a * 7919) % 5000) - ((b * 7919) % 5000));
        const store = createThreadStore();
        for (const [index, sort] of sorts.entries()) {
          store.apply(assistant(`m${sort}`, { content: 'x', sort }));
          if (index % 97 === 0) store.getSnapshot();
        }
        // Moves: some messages move to the end, one to the front, one stays put with new content.
        store.apply(assistant('m10', { sort: 10_000, isDelta: true }));
        store.apply(assistant('m4999', { sort: -1, isDelta: true }));
        store.apply(assistant('m20', { content: 'y', sort: 20 }));
        const expected = [
          4999,
          ...Array.from({ length: 5000 }, (_, index) => index).filter((n) => n !== 10 && n !== 4999),
          10,
        ];
        expect(ids(store)).toEqual(expected.map((n) => `m${n}`));
        // A message without sort takes the highest one so far, after the holder of the highest moved down.
        store.apply(assistant('m10', { sort: 3, isDelta: true }));
        store.apply(assistant('late'));
        expect(message(store, 'late').sort).toBe(4998);
        expect(ids(store).at(-1)).toBe('late');
      }
    });
  });

  describe('sentinels (2.8, behaviour 1)', () => {
    it('behaviour 1 sentinels are never messages', () => {
      const store = createThreadStore();
      for (const line of EXAMPLE) store.apply(line);
      store.apply({ id: '__aborted__', type: 'abort', code: 'chat_aborted', error: 'aborted' });
      store.apply({ id: '__suspended__', type: 'suspend', code: 'chat_suspended', retryable: true, error: 'restart' });
      for (const m of store.getSnapshot().messages) expect(m.id.startsWith('__')).toBe(false);
    });

    it('an unknown sentinel id that looks like a message is reported and kept out of messages', () => {
      const onInvalidLine = vi.fn();
      const store = createThreadStore({ onInvalidLine });
      const line = assistant('__progress__', { content: 'x', sort: 1 });
      store.apply(line);
      expect(store.getSnapshot().messages).toEqual([]);
      expect(onInvalidLine).toHaveBeenCalledWith(line, expect.stringContaining('__progress__'));
    });

    it('a tool call is kept whatever its id, the reserved-looking __proto__ included', () => {
      const onInvalidLine = vi.fn();
      const store = createThreadStore({ onInvalidLine });
      for (const id of ['__proto__', '__defineGetter__', 'constructor']) {
        store.apply({ id, role: 'assistant', toolCall: { name: id, input: '{}' }, isInProcess: true, sort: 1 });
      }
      expect(store.getSnapshot().messages.map((message) => message.id)).toEqual([
        '__proto__',
        '__defineGetter__',
        'constructor',
      ]);
      expect(onInvalidLine).not.toHaveBeenCalled();
    });

    it('2.8 __cutoff__ sets chatId and streaming (isStreaming true or false: the response is open)', () => {
      for (const isStreaming of [true, false]) {
        const store = createThreadStore();
        store.apply({ id: '__cutoff__', role: 'assistant', state: { isStreaming, chatId: CHAT_ID }, sort: 0 });
        expect(store.getSnapshot()).toMatchObject({ chatId: CHAT_ID, status: 'streaming', messages: [] });
      }
    });

    it('behaviour 1 __state__ in a foreign serialisation is tolerated and changes nothing', () => {
      const store = createThreadStore();
      for (const line of EXAMPLE.slice(0, 7)) store.apply(line);
      const before = store.getSnapshot();
      store.apply(EXAMPLE[7]);
      store.apply({ id: '__state__', state: { messages: 'not even an array' } });
      expect(store.getSnapshot()).toBe(before);
    });

    it('behaviour 1 __usage__ sets usage and ends the response: ready', () => {
      const store = createThreadStore();
      store.apply(EXAMPLE[0]);
      expect(store.getSnapshot().usage).toBeUndefined();
      store.apply(EXAMPLE[8]);
      expect(store.getSnapshot()).toMatchObject({ usage: USAGE, status: 'ready' });
    });

    it('behaviour 1 __aborted__ ends an aborted stream: aborted, kept by the __usage__ after it', () => {
      const store = createThreadStore();
      store.apply(EXAMPLE[0]);
      store.apply(assistant('m', { content: 'Partial', isDelta: true, sort: 2 }));
      store.apply({ id: '__aborted__', type: 'abort', code: 'chat_aborted', error: 'Chat aborted by user' });
      expect(store.getSnapshot()).toMatchObject({ status: 'aborted', error: undefined });
      store.apply(EXAMPLE[8]);
      expect(store.getSnapshot()).toMatchObject({ status: 'aborted', usage: USAGE });
      expect(message(store, 'm').content).toBe('Partial');
    });

    it('behaviour 1 __suspended__: suspended until the resumed reply’s __cutoff__', () => {
      const store = createThreadStore();
      store.apply(EXAMPLE[0]);
      store.apply({
        id: '__suspended__',
        type: 'suspend',
        code: 'chat_suspended',
        retryable: true,
        messageId: '1732512345678-message',
        error: 'Server restarting',
      });
      expect(store.getSnapshot().status).toBe('suspended');
      store.end();
      expect(store.getSnapshot().status).toBe('suspended');
      store.apply(EXAMPLE[0]);
      expect(store.getSnapshot().status).toBe('streaming');
    });

    it('a new response (__cutoff__) clears the previous usage and error', () => {
      const store = createThreadStore();
      store.apply({ error: 'boom' });
      store.apply(EXAMPLE[8]);
      store.apply(EXAMPLE[0]);
      expect(store.getSnapshot()).toMatchObject({ status: 'streaming', usage: undefined, error: undefined });
    });
  });

  describe('errors (7, behaviour 1)', () => {
    it('behaviour 1 an {"error"} line: status error with a ServiceStreamError', () => {
      const store = createThreadStore();
      store.apply(EXAMPLE[0]);
      store.apply({ error: 'Internal failure' });
      const { status, error } = store.getSnapshot();
      expect(status).toBe('error');
      expect(ServiceStreamError.isInstance(error)).toBe(true);
      expect(error?.message).toBe('Internal failure');
    });

    it('7 Streaming for thread is in progress, as an error line: StreamingInProgressError', () => {
      const store = createThreadStore();
      store.apply({ error: STREAMING_IN_PROGRESS });
      expect(StreamingInProgressError.isInstance(store.getSnapshot().error)).toBe(true);
    });

    it('7 chat authentication failure (JSON-RPC error object): ServiceAuthError carrying it', () => {
      const store = createThreadStore();
      store.apply(createRpcAuthError());
      const { status, error } = store.getSnapshot();
      expect(status).toBe('error');
      expect(ServiceAuthError.isInstance(error)).toBe(true);
      expect((error as ServiceAuthError).rpcError).toEqual({ code: -32001, message: 'Unauthorized' });
    });

    it('a __usage__ or end() after an error keeps the error', () => {
      const store = createThreadStore();
      store.apply({ error: 'boom' });
      store.apply(EXAMPLE[8]);
      store.end();
      expect(store.getSnapshot().status).toBe('error');
      expect(store.getSnapshot().error?.message).toBe('boom');
    });

    it('invalid lines are reported through onInvalidLine and ignored, never thrown', () => {
      const onInvalidLine = vi.fn();
      const store = createThreadStore({ onInvalidLine });
      store.apply(EXAMPLE[1]);
      const before = store.getSnapshot();
      const bad = [
        null,
        42,
        'text',
        [],
        { id: 'm' },
        { id: 'm', role: 'robot' },
        { id: '__cutoff__' },
        { id: 'x', role: 'user', content: 3 },
      ];
      for (const value of bad) expect(() => store.apply(value)).not.toThrow();
      expect(onInvalidLine).toHaveBeenCalledTimes(bad.length);
      for (const [index, value] of bad.entries()) {
        expect(onInvalidLine.mock.calls[index]![0]).toBe(value);
        expect(typeof onInvalidLine.mock.calls[index]![1]).toBe('string');
      }
      expect(store.getSnapshot()).toBe(before);
      expect(() => createThreadStore().apply({ id: 'm', role: 'user', graphPath: 'x' })).not.toThrow();
    });
  });

  describe('tool calls (2.8, 7, behaviour 1)', () => {
    it('behaviour 1 a tool call’s start and result lines become one message, JSON parsed', () => {
      const store = createThreadStore();
      store.apply(EXAMPLE[3]);
      const start = message(store, '4849adb2');
      expect(start.toolCall).toEqual({
        status: 'running',
        name: 'serviceMeta',
        input: { searchQuery: 'revenue trends' },
        raw: { name: 'serviceMeta', input: '{"searchQuery":"revenue trends"}' },
      });
      expect(start.isInProcess).toBe(true);
      store.apply(EXAMPLE[4]);
      expect(store.getSnapshot().messages).toHaveLength(1);
      const done = message(store, '4849adb2');
      expect(done.toolCall).toMatchObject({
        status: 'complete',
        input: { searchQuery: 'revenue trends' },
        result: { kind: 'serviceMeta', value: JSON.parse(META_RESULT) as unknown },
      });
      expect(done.toolCall?.raw.result).toBe(META_RESULT);
      expect(done).toMatchObject({ graphPath: TOOLS, isInProcess: false, sort: 6 });
    });

    it('a tool call is parsed once: a line with the same wire text keeps the same parsed object', () => {
      const store = createThreadStore();
      store.apply(EXAMPLE[4]);
      const first = message(store, '4849adb2').toolCall;
      const snapshot = store.getSnapshot();
      store.apply(JSON.parse(JSON.stringify(EXAMPLE[4])));
      expect(store.getSnapshot()).toBe(snapshot);
      // Another field changes: a new message, but the tool call is not parsed again.
      store.apply({ ...EXAMPLE[4], isInProcess: true });
      expect(message(store, '4849adb2')).not.toBe(snapshot.messages[0]);
      expect(message(store, '4849adb2').toolCall).toBe(first);
      store.apply({
        ...EXAMPLE[4],
        toolCall: { name: 'serviceMeta', input: '{"searchQuery":"revenue trends"}', result: '{"error":"timeout"}' },
      });
      expect(message(store, '4849adb2').toolCall).toMatchObject({ status: 'error', error: 'timeout', source: 'tool' });
    });

    it('a parse runs only when the wire text changes', () => {
      const spy = vi.spyOn(JSON, 'parse');
      try {
        const store = createThreadStore();
        store.apply(EXAMPLE[4]);
        const parses = spy.mock.calls.length;
        expect(parses).toBeGreaterThan(0);
        for (let i = 0; i < 5; i++) store.apply({ ...EXAMPLE[4], sort: 6 + (i % 2) });
        expect(spy.mock.calls.length).toBe(parses);
        store.apply({ ...EXAMPLE[4], toolCall: { ...EXAMPLE[4]!.toolCall, result: '{"cubes":[],"searchQuery":"x"}' } });
        expect(spy.mock.calls.length).toBeGreaterThan(parses);
      } finally {
        spy.mockRestore();
      }
    });

    it('2.8 tool error: the result’s error string is an error state of the tool call', () => {
      const store = createThreadStore();
      store.apply(
        assistant('t', {
          toolCall: { name: 'serviceSqlApi', input: '{"sqlQuery":"SELECT 1"}', result: '{"error":"Column not found"}' },
          graphPath: TOOLS,
          sort: 4,
        }),
      );
      expect(message(store, 't').toolCall).toMatchObject({
        status: 'error',
        error: 'Column not found',
        source: 'tool',
        input: { sqlQuery: 'SELECT 1' },
      });
    });

    it('bad tool JSON is an error state of the tool call, not a crash', () => {
      const store = createThreadStore();
      expect(() =>
        store.apply(
          assistant('t', { toolCall: { name: 'serviceSqlApi', input: '{"sqlQuery":', result: '{}' }, sort: 4 }),
        ),
      ).not.toThrow();
      expect(message(store, 't').toolCall).toMatchObject({ status: 'error', source: 'parse' });
      store.apply(assistant('u', { toolCall: { name: 'serviceSqlApi', input: '{}', result: '{"data":[' }, sort: 5 }));
      expect(message(store, 'u').toolCall).toMatchObject({ status: 'error', source: 'parse' });
      expect(store.getSnapshot().status).toBe('streaming');
    });

    it('a replace line without toolCall drops the tool call; a delta without it keeps it', () => {
      const store = createThreadStore();
      store.apply(EXAMPLE[3]);
      store.apply(assistant('4849adb2', { isDelta: true, content: 'note' }));
      expect(message(store, '4849adb2').toolCall?.name).toBe('serviceMeta');
      store.apply(assistant('4849adb2', { content: 'plain', sort: 5 }));
      expect(message(store, '4849adb2').toolCall).toBeUndefined();
    });
  });

  describe('final answer (4.4)', () => {
    it('4.4 final answer: last assistant message with graphPath[0] = final and length ≤ 2', () => {
      const store = createThreadStore();
      store.apply(assistant('work', { content: 'working', graphPath: [AGENT_NODE], sort: 2 }));
      expect(store.getSnapshot().finalAnswer).toBeUndefined();
      store.apply(assistant('f1', { content: 'first', graphPath: ['final'], sort: 3 }));
      store.apply(assistant('f2', { content: 'second', graphPath: ['final', 'x'], sort: 4 }));
      store.apply(assistant('deep', { content: 'nested', graphPath: ['final', 'a', 'b'], sort: 5 }));
      store.apply({ id: 'u', role: 'user', content: 'mine', graphPath: ['final'], sort: 6 });
      store.apply(assistant('other', { content: 'after', graphPath: [AGENT_NODE, 'final'], sort: 7 }));
      expect(store.getSnapshot().finalAnswer?.id).toBe('f2');
      // "Last" is by sort, not by arrival.
      store.apply(assistant('f0', { content: 'early', graphPath: ['final'], sort: 1 }));
      expect(store.getSnapshot().finalAnswer?.id).toBe('f2');
    });

    it('4.4 final answer: follows the streamed content of the final message', () => {
      const store = createThreadStore();
      store.apply(assistant('f', { content: 'Rev', graphPath: ['final'], isDelta: true, sort: 9 }));
      expect(store.getSnapshot().finalAnswer?.content).toBe('Rev');
      store.apply(assistant('f', { content: 'enue', isDelta: true }));
      const { finalAnswer, messages } = store.getSnapshot();
      expect(finalAnswer?.content).toBe('Revenue');
      expect(finalAnswer).toBe(messages[0]);
    });

    it('4.4 selectFinalAnswer on a list of messages', () => {
      const base = { content: '', thinking: '', toolCall: undefined, isInProcess: false, isStructuredResponse: false };
      const list: ChatMessage[] = [
        { ...base, id: 'a', role: 'assistant', graphPath: ['final'], sort: 1 },
        { ...base, id: 'b', role: 'assistant', graphPath: ['final', 'x', 'y'], sort: 2 },
        { ...base, id: 'c', role: 'user', graphPath: ['final'], sort: 3 },
      ];
      expect(selectFinalAnswer(list)?.id).toBe('a');
      expect(selectFinalAnswer([])).toBeUndefined();
      expect(selectFinalAnswer(list.slice(1))).toBeUndefined();
    });
  });

  describe('status and lifecycle', () => {
    it('begin → submitted, the first line → streaming, end → ready', () => {
      const store = createThreadStore();
      store.apply(EXAMPLE[8]);
      store.begin();
      expect(store.getSnapshot()).toMatchObject({ status: 'submitted', usage: undefined });
      store.apply(EXAMPLE[1]);
      expect(store.getSnapshot().status).toBe('streaming');
      store.end();
      expect(store.getSnapshot().status).toBe('ready');
    });

    it('fail records the error; a non-Error reason is wrapped in a ServiceError', () => {
      const store = createThreadStore();
      const httpError = new ServiceHttpError('Not found', { status: 404 });
      store.fail(httpError);
      expect(store.getSnapshot()).toMatchObject({ status: 'error', error: httpError });
      store.fail('offline');
      const { error } = store.getSnapshot();
      expect(ServiceError.isInstance(error)).toBe(true);
      expect(error?.message).toBe('offline');
      store.begin();
      expect(store.getSnapshot().error).toBeUndefined();
    });

    it('reset returns to an empty, idle store', () => {
      const store = createThreadStore();
      for (const line of EXAMPLE) store.apply(line);
      store.reset();
      expect(store.getSnapshot()).toEqual(createThreadStore().getSnapshot());
      const snapshot = store.getSnapshot();
      store.reset();
      expect(store.getSnapshot()).toBe(snapshot);
      store.apply(EXAMPLE[1]);
      expect(ids(store)).toEqual(['1732512345678-message']);
    });
  });

  describe('snapshots and listeners', () => {
    it('getSnapshot returns the same object until something changes', () => {
      const store = createThreadStore();
      const empty = store.getSnapshot();
      expect(store.getSnapshot()).toBe(empty);
      store.apply(EXAMPLE[1]);
      const one = store.getSnapshot();
      expect(one).not.toBe(empty);
      expect(store.getSnapshot()).toBe(one);
    });

    it('a line that changes nothing keeps the same snapshot object', () => {
      const store = createThreadStore();
      for (const line of EXAMPLE) store.apply(line);
      const snapshot = store.getSnapshot();
      // Not the `__cutoff__`: it starts a new response (streaming, usage cleared).
      const noOps = [
        { ...EXAMPLE[1] },
        assistant('cdfe1a84', { content: '', thinking: '', isDelta: true }),
        EXAMPLE[4],
        EXAMPLE[7],
        { ...EXAMPLE[8], usage: { ...USAGE, models: [...USAGE.models] } },
      ];
      for (const line of noOps) store.apply(line);
      expect(store.getSnapshot()).toBe(snapshot);
    });

    it('only the changed message gets a new object; the messages array is kept when only status changes', () => {
      const store = createThreadStore();
      for (const line of EXAMPLE.slice(0, 6)) store.apply(line);
      const before = store.getSnapshot();
      store.apply(EXAMPLE[6]);
      const after = store.getSnapshot();
      expect(after.messages.slice(0, 3)).toEqual(before.messages.slice(0, 3));
      for (let i = 0; i < 3; i++) expect(after.messages[i]).toBe(before.messages[i]);
      expect(after.messages[3]).not.toBe(before.messages[3]);
      store.apply(EXAMPLE[8]);
      expect(store.getSnapshot().messages).toBe(after.messages);
      expect(store.getSnapshot().status).toBe('ready');
    });

    it('a snapshot already handed out never changes afterwards', () => {
      const store = createThreadStore();
      store.apply(assistant('m', { content: 'a', isDelta: true, sort: 1 }));
      const old = store.getSnapshot();
      store.apply(assistant('m', { content: 'b', isDelta: true }));
      store.apply(assistant('n', { sort: 0 }));
      expect(old.messages).toHaveLength(1);
      expect(old.messages[0]?.content).toBe('a');
    });

    it('listeners: notified once per changing line, not for a line that changes nothing; unsubscribe stops it', () => {
      const store = createThreadStore();
      const { subscribe } = store;
      const listener = vi.fn();
      const unsubscribe = subscribe(listener);
      store.apply(EXAMPLE[0]);
      store.apply(EXAMPLE[1]);
      expect(listener).toHaveBeenCalledTimes(2);
      store.apply(EXAMPLE[1]);
      store.apply(EXAMPLE[7]);
      store.apply(null);
      expect(listener).toHaveBeenCalledTimes(2);
      unsubscribe();
      store.apply(EXAMPLE[2]);
      expect(listener).toHaveBeenCalledTimes(2);
    });

    it('listeners read the new snapshot when notified', () => {
      const store = createThreadStore();
      const seen: number[] = [];
      store.subscribe(() => seen.push(store.getSnapshot().messages.length));
      store.apply(EXAMPLE[1]);
      store.apply(EXAMPLE[2]);
      expect(seen).toEqual([1, 2]);
    });

    it('batch and applyMany notify once for many lines', () => {
      const store = createThreadStore();
      const listener = vi.fn();
      store.subscribe(listener);
      store.applyMany(EXAMPLE);
      expect(listener).toHaveBeenCalledTimes(1);
      expect(ids(store)).toHaveLength(4);
      const result = store.batch(() => {
        store.reset();
        store.batch(() => store.apply(EXAMPLE[1]));
        expect(listener).toHaveBeenCalledTimes(1);
        return 'done';
      });
      expect(result).toBe('done');
      expect(listener).toHaveBeenCalledTimes(2);
      store.batch(() => store.apply(EXAMPLE[1]));
      expect(listener).toHaveBeenCalledTimes(2);
    });

    it('scheduleNotify coalesces notifications while snapshots stay current', () => {
      const pending: (() => void)[] = [];
      const store = createThreadStore({ scheduleNotify: (notify) => pending.push(notify) });
      const listener = vi.fn();
      store.subscribe(listener);
      store.apply(EXAMPLE[0]);
      store.apply(EXAMPLE[1]);
      store.apply(EXAMPLE[2]);
      expect(ids(store)).toEqual(['1732512345678-message', 'cdfe1a84']);
      expect(listener).not.toHaveBeenCalled();
      expect(pending).toHaveLength(1);
      pending.shift()!();
      expect(listener).toHaveBeenCalledTimes(1);
      store.apply(EXAMPLE[3]);
      expect(pending).toHaveLength(1);
    });
  });

  describe('property: the store agrees with a naive reference model', () => {
    interface RefMessage {
      id: string;
      role: string;
      content: string;
      thinking: string;
      graphPath: readonly string[];
      isInProcess: boolean;
      isStructuredResponse: boolean;
      sort: number;
    }
    type Line = {
      id: string;
      role: 'user' | 'assistant';
      isDelta?: boolean;
      content?: string;
      thinking?: string;
      sort?: number;
      isInProcess?: boolean;
      isStructuredResponse?: boolean;
      graphPath?: string[];
    };

    /** The rules of 2.8 written the obvious way: a Map in first-arrival order, sorted stably at the end. */
    function reference(lines: readonly (Line | { noise: unknown })[]): RefMessage[] {
      const messages = new Map<string, RefMessage>();
      const ordered = () => [...messages.values()].sort((a, b) => a.sort - b.sort);
      for (const line of lines) {
        if ('noise' in line) continue;
        const previous = messages.get(line.id);
        const fallbackSort = previous?.sort ?? Math.max(0, ...[...messages.values()].map((m) => m.sort));
        if (line.isDelta === true && previous) {
          messages.set(line.id, {
            id: line.id,
            role: line.role,
            content: previous.content + (line.content ?? ''),
            thinking: previous.thinking + (line.thinking ?? ''),
            graphPath: line.graphPath ?? previous.graphPath,
            isInProcess: line.isInProcess ?? previous.isInProcess,
            isStructuredResponse: line.isStructuredResponse ?? previous.isStructuredResponse,
            sort: line.sort ?? previous.sort,
          });
        } else {
          messages.set(line.id, {
            id: line.id,
            role: line.role,
            content: line.content ?? '',
            thinking: line.thinking ?? '',
            graphPath: line.graphPath ?? [],
            isInProcess: line.isInProcess ?? false,
            isStructuredResponse: line.isStructuredResponse ?? false,
            sort: line.sort ?? fallbackSort,
          });
        }
      }
      return ordered();
    }

    const lineArbitrary: fc.Arbitrary<Line | { noise: unknown }> = fc.oneof(
      {
        weight: 12,
        arbitrary: fc.record(
          {
            id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
            role: fc.constantFrom('user' as const, 'assistant' as const),
            isDelta: fc.boolean(),
            content: fc.string({ unit: 'grapheme', maxLength: 6 }),
            thinking: fc.string({ maxLength: 4 }),
            sort: fc.integer({ min: 0, max: 6 }),
            isInProcess: fc.boolean(),
            isStructuredResponse: fc.boolean(),
            graphPath: fc.constantFrom<string[]>(
              [AGENT_NODE],
              [AGENT_NODE, 'tools'],
              ['final'],
              ['final', 'x'],
              ['final', 'x', 'y'],
            ),
          },
          { requiredKeys: ['id', 'role'] },
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom<unknown>(
            EXAMPLE[0],
            EXAMPLE[7],
            EXAMPLE[8],
            { error: 'x' },
            { id: '__aborted__', type: 'abort', code: 'chat_aborted', error: 'x' },
            null,
            { id: 'a', role: 'robot' },
          )
          .map((noise) => ({ noise })),
      },
    );

    it('messages, order and final answer match after every line', () => {
      fc.assert(
        fc.property(
          fc.array(lineArbitrary, { maxLength: 60 }),
          fc.array(fc.boolean(), { maxLength: 60 }),
          (lines, reads) => {
            const store = createThreadStore();
            for (const [index, line] of lines.entries()) {
              store.apply('noise' in line ? line.noise : line);
              // Read at random points: a lazily built snapshot must be right whenever it is read.
              if (reads[index] || index === lines.length - 1) {
                const expected = reference(lines.slice(0, index + 1));
                const { messages, finalAnswer } = store.getSnapshot();
                expect(messages.map(({ toolCall: _toolCall, ...rest }) => rest)).toEqual(expected);
                const expectedFinal = [...expected]
                  .reverse()
                  .find((m) => m.role === 'assistant' && m.graphPath[0] === 'final' && m.graphPath.length <= 2);
                expect(finalAnswer?.id).toBe(expectedFinal?.id);
              }
            }
          },
        ),
        { numRuns: 400 },
      );
    });
  });
});
