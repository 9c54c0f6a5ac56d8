// @vitest-environment node
/**
 * The chat controller (createAgentChat) over a fake transport that replays recorded emulator
 * transcripts in awkward chunks, and against the live emulator for abort, reconnect, refusal
 * and reload.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  agentChatReducer,
  createAgentChat,
  INITIAL_AGENT_CHAT_STATE,
  type AgentChatController,
  type AgentChatStatus,
} from '../../../src/core/agent-chat';
import { createChatClient, type ChatClientOptions } from '../../../src/core/chat-client';
import { ServiceHttpError, StreamingInProgressError, ServiceConfigError } from '../../../src/core/errors';
import { createThreadStore } from '../../../src/core/thread-store';
import { ADMIN_API_KEY, fetchWithFaultOnce } from '../../../src/emulator';
import {
  createReplayFetch,
  TRANSCRIPTS,
  type ReplayChunking,
  type ReplayFetchOptions,
  type TranscriptName,
} from '../../../src/testing';
import { useEmulator } from '../../helpers/emulator';

/** Every status the controller published, in order, without repeats. */
function statuses(chat: AgentChatController): AgentChatStatus[] {
  const seen: AgentChatStatus[] = [chat.getSnapshot().status];
  chat.subscribe(() => {
    const { status } = chat.getSnapshot();
    if (seen.at(-1) !== status) seen.push(status);
  });
  return seen;
}

describe('createAgentChat over recorded transcripts', () => {
  const fakeChat = (
    name: TranscriptName,
    chunking: ReplayChunking,
    extra: Omit<ReplayFetchOptions, 'transcript'> = {},
  ) => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS[name], chunking, ...extra });
    const chat = createAgentChat({
      client: createChatClient({ url: '/api/service', fetch: fake.fetch, resubscribe: false }),
    });
    return { chat, fake };
  };

  it.each<[string, ReplayChunking]>([
    ['one chunk', 'whole'],
    ['one line at a time', 'lines'],
    ['one byte at a time', 'bytes'],
    ['split inside every UTF-8 character and after every newline', 'awkward'],
    ['odd sizes (7, 1, 13, 2)', [7, 1, 13, 2]],
  ])('the same thread whatever the chunking: %s', async (_name, chunking) => {
    const reference = fakeChat('revenue-by-month', 'whole');
    await reference.chat.send('Show revenue by month in 2025');
    const { chat } = fakeChat('revenue-by-month', chunking);
    await chat.send('Show revenue by month in 2025');
    const snapshot = chat.getSnapshot();
    expect(snapshot.status).toBe('ready');
    const strip = (messages: typeof snapshot.messages) => messages.map(({ id: _id, ...message }) => message);
    expect(strip(snapshot.messages)).toEqual(strip(reference.chat.getSnapshot().messages));
    expect(snapshot.finalAnswer?.graphPath).toEqual(['final']);
    expect(snapshot.finalAnswer?.content).toMatch(/revenue/i);
    expect(snapshot.messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it('shows the question at once (optimistic), then the echo replaces it by id: one user message', async () => {
    const { chat, fake } = fakeChat('top-customers', 64, { delayMs: 1 });
    const seen = statuses(chat);
    const done = chat.send('  Who are our top 10 customers?  ');
    const first = chat.getSnapshot();
    expect(first.status).toBe('submitted');
    expect(first.messages).toEqual([
      expect.objectContaining({ role: 'user', content: 'Who are our top 10 customers?' }),
    ]);
    await done;
    const user = chat.getSnapshot().messages.filter((message) => message.role === 'user');
    expect(user).toHaveLength(1);
    expect(user[0]!.id).toBe(fake.streams[0]!['messageId']);
    expect(seen).toEqual(['idle', 'submitted', 'streaming', 'ready']);
    expect(chat.getSnapshot().chatId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a second question while an answer runs, with a typed error and no second request', async () => {
    const { chat, fake } = fakeChat('cannot-answer', 32, { delayMs: 1 });
    const first = chat.send('What is the weather tomorrow?');
    await expect(chat.send('And next week?')).rejects.toBeInstanceOf(StreamingInProgressError);
    await expect(chat.resume()).rejects.toBeInstanceOf(StreamingInProgressError);
    await first;
    expect(fake.streams).toHaveLength(1);
    expect(chat.getSnapshot().status).toBe('ready');
    await expect(chat.send('   ')).rejects.toBeInstanceOf(ServiceConfigError);
  });

  it('a second question continues the same thread (its chatId in the request)', async () => {
    const { chat, fake } = fakeChat('cannot-answer', 'lines');
    await chat.send('first');
    const chatId = chat.getSnapshot().chatId;
    await chat.send('second');
    expect(fake.streams[1]).toMatchObject({ input: 'second', chatId });
  });

  it('a 404 from the abort endpoint is the error, not swallowed; the local request is cut', async () => {
    const onError = vi.fn();
    const fake = createReplayFetch({
      transcript: TRANSCRIPTS['revenue-by-month'],
      chunking: 16,
      delayMs: 2,
      abortStatus: 404,
    });
    const chat = createAgentChat({
      client: createChatClient({ url: '/api/service', fetch: fake.fetch, resubscribe: false }),
      onError,
    });
    const done = chat.send('Show revenue by month in 2025');
    await vi.waitFor(() => expect(chat.getSnapshot().chatId).toBeDefined());
    await chat.abort();
    await done;
    const { status, error } = chat.getSnapshot();
    expect(status).toBe('error');
    expect(ServiceHttpError.isInstance(error) && error.status).toBe(404);
    expect(onError).toHaveBeenCalledWith(error);
    expect(fake.aborts).toEqual([{ chatId: chat.getSnapshot().chatId }]);
  });

  it('scheduleNotify batches a whole answer into few notifications; snapshots stay current', async () => {
    const pending: (() => void)[] = [];
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['top-customers'], chunking: (text) => [text] });
    const chat = createAgentChat({
      client: createChatClient({ url: '/api/service', fetch: fake.fetch }),
      scheduleNotify: (notify) => pending.push(notify),
    });
    const listener = vi.fn();
    chat.subscribe(listener);
    await chat.send('Who are our top 10 customers?');
    expect(chat.getSnapshot().status).toBe('ready');
    // 50 lines applied, yet at most one notification waits at any time.
    expect(pending.length).toBeLessThanOrEqual(3);
    pending.splice(0).forEach((notify) => notify());
    expect(listener.mock.calls.length).toBeLessThanOrEqual(3);
  });

  it('reset forgets the thread; dispose refuses later sends', async () => {
    const { chat } = fakeChat('cannot-answer', 'lines');
    await chat.send('hello');
    chat.reset();
    expect(chat.getSnapshot()).toMatchObject({ status: 'idle', messages: [], chatId: undefined });
    chat.dispose();
    await expect(chat.send('again')).rejects.toBeInstanceOf(ServiceConfigError);
  });

  it('remembers which turns were stopped or failed, past the next turn; a retry that answers forgets it', async () => {
    const fake = createReplayFetch({
      transcripts: [TRANSCRIPTS['cannot-answer'], TRANSCRIPTS['cannot-answer'], TRANSCRIPTS['cannot-answer']],
      faults: [{ holdAfterLines: 3 }, { status: 503 }],
    });
    const chat = createAgentChat({ client: createChatClient({ url: '/x', fetch: fake.fetch, resubscribe: false }) });
    const stopped = chat.send('first');
    await vi.waitFor(() => expect(chat.getSnapshot().chatId).toBeDefined());
    await chat.abort();
    await stopped;
    const first = chat.getSnapshot().messages.find((message) => message.role === 'user')!;
    expect(chat.getSnapshot().outcomes).toEqual(new Map([[first.id, 'aborted']]));
    await chat.send('second');
    const second = chat.getSnapshot().messages.findLast((message) => message.role === 'user')!;
    expect(chat.getSnapshot().outcomes).toEqual(
      new Map([
        [first.id, 'aborted'],
        [second.id, 'error'],
      ]),
    );
    await chat.resume();
    expect(chat.getSnapshot().status).toBe('ready');
    expect(chat.getSnapshot().outcomes).toEqual(new Map([[first.id, 'aborted']]));
    chat.reset();
    expect(chat.getSnapshot().outcomes.size).toBe(0);
  });

  it('uses a given thread store', async () => {
    const store = createThreadStore();
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'] });
    const chat = createAgentChat({ client: createChatClient({ url: '/x', fetch: fake.fetch }), store });
    await chat.send('hello');
    expect(store.getSnapshot().messages).toBe(chat.getSnapshot().messages);
  });
});

describe("the controller's work follows its subscribers", () => {
  const heldChat = (extra: Omit<ReplayFetchOptions, 'transcript'> = {}) => {
    const fake = createReplayFetch({
      transcript: TRANSCRIPTS['top-customers'],
      faults: { holdAfterLines: 6 },
      ...extra,
    });
    const onFinish = vi.fn();
    const onError = vi.fn();
    const chat = createAgentChat({
      client: createChatClient({ url: '/api/service', fetch: fake.fetch, resubscribe: false }),
      onFinish,
      onError,
    });
    return { chat, fake, onFinish, onError };
  };
  const microtasks = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

  it('the last unsubscribe cuts the local request (the agent goes on); the next subscribe continues the answer', async () => {
    const { chat, fake, onFinish, onError } = heldChat();
    const unsubscribe = chat.subscribe(() => {});
    const sent = chat.send('Who are our top 10 customers?');
    await vi.waitFor(() => expect(chat.getSnapshot().chatId).toBeDefined());
    unsubscribe();
    // The request ends, quietly: no error, no finish, no abort endpoint (the agent goes on).
    await sent;
    expect(fake.aborts).toEqual([]);
    expect(onError).not.toHaveBeenCalled();
    expect(onFinish).not.toHaveBeenCalled();
    expect(fake.streams).toHaveLength(1);
    // Someone looks again: the thread is read, which replays it and streams the rest of the answer.
    const listener = vi.fn();
    chat.subscribe(listener);
    await vi.waitFor(() => expect(chat.getSnapshot().status).toBe('ready'));
    expect(fake.streams[1]).toEqual({ chatId: chat.getSnapshot().chatId });
    expect(chat.getSnapshot().finalAnswer?.content).toMatch(/top 10 customers/);
    expect(chat.getSnapshot().messages.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalled();
  });

  it('an unsubscribe and a subscribe in the same task (StrictMode, a moved subscriber) change nothing', async () => {
    const { chat, fake } = heldChat();
    const first = chat.subscribe(() => {});
    void chat.send('Who are our top 10 customers?');
    await vi.waitFor(() => expect(chat.getSnapshot().chatId).toBeDefined());
    first();
    const second = chat.subscribe(() => {});
    await microtasks();
    expect(chat.getSnapshot().status).toBe('streaming');
    await chat.abort();
    await vi.waitFor(() => expect(chat.getSnapshot().status).toBe('aborted'));
    expect(fake.streams).toHaveLength(1);
    second();
  });

  it('an answer sent with no subscriber at all runs to its end', async () => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'], chunking: 32, delayMs: 1 });
    const chat = createAgentChat({ client: createChatClient({ url: '/api/service', fetch: fake.fetch }) });
    await chat.send('What is the weather tomorrow?');
    expect(chat.getSnapshot().status).toBe('ready');
  });

  it('dispose() is silent: at most one notification after it, none later', async () => {
    const pending: (() => void)[] = [];
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['top-customers'], chunking: 16, delayMs: 1 });
    const chat = createAgentChat({
      client: createChatClient({ url: '/api/service', fetch: fake.fetch, resubscribe: false }),
      // Notifications wait for the test to run them, as animation frames wait for the browser.
      scheduleNotify: (notify) => pending.push(notify),
    });
    let calls = 0;
    chat.subscribe(() => (calls += 1));
    const sent = chat.send('Who are our top 10 customers?');
    await vi.waitFor(() => expect(chat.getSnapshot().messages.length).toBeGreaterThan(2));
    pending.splice(0).forEach((notify) => notify());
    const before = calls;
    chat.dispose();
    await sent;
    for (let round = 0; round < 5; round++) {
      await microtasks();
      pending.splice(0).forEach((notify) => notify());
    }
    expect(calls - before).toBeLessThanOrEqual(1);
    const after = calls;
    await expect(chat.send('again')).rejects.toBeInstanceOf(ServiceConfigError);
    chat.reset();
    await chat.abort();
    pending.splice(0).forEach((notify) => notify());
    expect(calls).toBe(after);
  });
});

describe('agentChatReducer', () => {
  const event = { attempt: 1, delayMs: 1, reason: 'connection_lost' as const, chatId: 'c', cause: undefined };
  const running = agentChatReducer(INITIAL_AGENT_CHAT_STATE, { type: 'start' });

  it('start, lines, reconnect, end', () => {
    expect(running.status).toBe('submitted');
    const streaming = agentChatReducer(running, { type: 'thread', status: 'streaming', error: undefined });
    expect(streaming.status).toBe('streaming');
    const reconnecting = agentChatReducer(streaming, { type: 'reconnect', event });
    expect(reconnecting).toEqual({ status: 'reconnecting', error: undefined, reconnect: event });
    expect(agentChatReducer(reconnecting, { type: 'thread', status: 'streaming', error: undefined })).toEqual({
      status: 'streaming',
      error: undefined,
      reconnect: undefined,
    });
    expect(agentChatReducer(streaming, { type: 'thread', status: 'ready', error: undefined }).status).toBe('ready');
  });

  it('a refused abort has the last word; a stop cut locally is aborted; nothing moves a finished answer but start and reset', () => {
    const refused = agentChatReducer(running, { type: 'abortFailed', error: new Error('403') });
    expect(refused.status).toBe('error');
    expect(agentChatReducer(refused, { type: 'thread', status: 'streaming', error: undefined })).toBe(refused);
    expect(agentChatReducer(refused, { type: 'fail', error: new Error('cut'), stopped: true })).toBe(refused);
    expect(agentChatReducer(running, { type: 'fail', error: new Error('cut'), stopped: true }).status).toBe('aborted');
    expect(agentChatReducer(running, { type: 'fail', error: new Error('net'), stopped: false }).status).toBe('error');
    const ready = agentChatReducer(running, { type: 'thread', status: 'ready', error: undefined });
    expect(agentChatReducer(ready, { type: 'reconnect', event })).toBe(ready);
    expect(agentChatReducer(ready, { type: 'reset' })).toBe(INITIAL_AGENT_CHAT_STATE);
  });
});

describe('createAgentChat against the emulator', () => {
  const emulator = useEmulator({ chatPace: 'instant' });

  const alice = { externalId: 'alice@partner.test' };
  const makeChat = (clientOptions: Partial<ChatClientOptions> = {}, chatId?: string) => {
    const chat: AgentChatController = createAgentChat({
      chatId,
      client: createChatClient({
        url: emulator.aiUrl,
        auth: { apiKey: ADMIN_API_KEY },
        sessionSettings: alice,
        resubscribe: { baseDelayMs: 1, maxDelayMs: 2 },
        onResubscribe: (event) => chat.reconnecting(event),
        ...clientOptions,
      }),
    });
    return chat;
  };

  it('abort calls the abort endpoint: the agent stops, the answer ends aborted, no final answer', async () => {
    const onFinish = vi.fn();
    const chat = createAgentChat({
      client: createChatClient({
        url: emulator.aiUrl,
        auth: { apiKey: ADMIN_API_KEY },
        sessionSettings: alice,
        fetch: fetchWithFaultOnce('hold-after=5'),
      }),
      onFinish,
    });
    const done = chat.send('revenue by region');
    await vi.waitFor(() => expect(chat.getSnapshot().messages.length).toBeGreaterThan(1));
    await chat.abort();
    await done;
    expect(chat.getSnapshot().status).toBe('aborted');
    expect(chat.getSnapshot().finalAnswer).toBeUndefined();
    expect(onFinish).toHaveBeenCalledWith(expect.objectContaining({ status: 'aborted' }));
  });

  it('abort before the thread has an id waits for it, then stops the agent', async () => {
    const chat = makeChat({ fetch: fetchWithFaultOnce('delay=50, hold-after=3') });
    const done = chat.send('orders by status');
    await chat.abort();
    await done;
    expect(chat.getSnapshot().status).toBe('aborted');
  });

  it("a 403 from the abort endpoint (not the caller's thread) surfaces as the error", async () => {
    const owner = createChatClient({
      url: emulator.aiUrl,
      auth: { apiKey: ADMIN_API_KEY },
      sessionSettings: alice,
      fetch: fetchWithFaultOnce('hold-after=4'),
    });
    const mallory = createChatClient({
      url: emulator.aiUrl,
      auth: { apiKey: ADMIN_API_KEY },
      sessionSettings: { externalId: 'mallory@partner.test' },
    });
    const chat = createAgentChat({ client: { stream: owner.stream, abort: mallory.abort } });
    const done = chat.send('orders by status');
    await vi.waitFor(() => expect(chat.getSnapshot().chatId).toBeDefined());
    await chat.abort();
    await done;
    const { status, error } = chat.getSnapshot();
    expect(status).toBe('error');
    expect(ServiceHttpError.isInstance(error) && error.status).toBe(403);
    await owner.abort(chat.getSnapshot().chatId!);
  });

  it('a dropped connection shows reconnecting, then resumes the same answer with nothing duplicated', async () => {
    const chat = makeChat({ fetch: fetchWithFaultOnce('cut-after=9') });
    const seen = statuses(chat);
    await chat.send('Show me revenue by month');
    expect(seen).toContain('reconnecting');
    expect(seen.at(-1)).toBe('ready');
    const { messages } = chat.getSnapshot();
    expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length);
    // The same thread as a fresh read of it shows.
    const reader = makeChat({}, chat.getSnapshot().chatId);
    await reader.resume();
    expect(reader.getSnapshot().messages.map((message) => [message.id, message.content])).toEqual(
      messages.map((message) => [message.id, message.content]),
    );
  });

  it('a page reloaded mid-answer continues it from the stored chatId', async () => {
    const first = makeChat({ fetch: fetchWithFaultOnce('hold-after=6') });
    let chatId: string | undefined;
    const firstDone = first.send('Who are our top 10 customers?');
    await vi.waitFor(() => expect((chatId = first.getSnapshot().chatId)).toBeDefined());
    // The "reload": the old page goes away without stopping the agent; a new one opens the thread.
    first.dispose();
    await firstDone;
    const onChatId = vi.fn();
    const reloaded = createAgentChat({
      chatId,
      onChatId,
      client: createChatClient({ url: emulator.aiUrl, auth: { apiKey: ADMIN_API_KEY }, sessionSettings: alice }),
    });
    expect(reloaded.getSnapshot().chatId).toBe(chatId);
    await reloaded.resume();
    const snapshot = reloaded.getSnapshot();
    expect(snapshot.status).toBe('ready');
    expect(snapshot.finalAnswer?.content).toMatch(/top 10 customers/);
    expect(snapshot.messages.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(onChatId).not.toHaveBeenCalled();
  });

  it('a failed send is resumed with the same messageId: one user message, one answer', async () => {
    const chat = makeChat({ fetch: fetchWithFaultOnce('status=503') });
    await chat.send('orders by status');
    expect(chat.getSnapshot().status).toBe('error');
    await chat.resume();
    expect(chat.getSnapshot().status).toBe('ready');
    expect(chat.getSnapshot().messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });
});
