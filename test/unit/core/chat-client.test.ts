// @vitest-environment node
// The client is core code for browsers and Node alike; here it runs on Node's own fetch and
// sockets, and without a `document`, so the API-key-in-a-browser warning fires only where a test
// asks for it.
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createChatClient,
  createReplayFilter,
  type ChatStreamLine,
  type ResubscribeEvent,
} from '../../../src/core/chat-client';
import {
  ConnectionLostError,
  ServiceAbortError,
  ServiceAuthError,
  ServiceConfigError,
  ServiceHttpError,
  ServiceStreamError,
  ServiceValidationError,
  StreamingInProgressError,
} from '../../../src/core/errors';
import { isMessageId, type StreamLine, type StreamMessage } from '../../../src/core/protocol/chat';
import {
  AGENT_PATH,
  HOLD,
  RawLine,
  TEST_API_KEY,
  defaultReply,
  foldMessages,
  startChatServer,
  type ChatServer,
  type ReplyStep,
} from '../../helpers/chat-server';
import { chatIdOf, collect } from '../../helpers/streams';

let server: ChatServer;
/** Reply of the next new input; reset after each test. */
let nextReply: ReplyStep[] | undefined;

beforeAll(async () => {
  server = await startChatServer({ reply: (request) => nextReply ?? defaultReply(request) });
});
afterEach(() => {
  nextReply = undefined;
  server.replay = 'lines';
  server.busy = 'status';
  server.clearFaults();
  server.release();
  server.requests.length = 0;
});
afterAll(() => server.close());

const fast = { baseDelayMs: 1, maxDelayMs: 2 };
const alice = { externalId: 'alice' };

function tokenClient(extra: Partial<Parameters<typeof createChatClient>[0]> = {}) {
  return createChatClient({ url: server.url, auth: { token: 'token-alice' }, resubscribe: fast, ...extra });
}

/** The lines yielded before the stream failed, and the error. */
async function collectUntilError(
  lines: AsyncIterable<ChatStreamLine>,
): Promise<{ lines: ChatStreamLine[]; error: unknown }> {
  const out: ChatStreamLine[] = [];
  try {
    for await (const line of lines) out.push(line);
  } catch (error) {
    return { lines: out, error };
  }
  throw new Error(`expected the stream to fail; it ended after ${out.length} lines`);
}

function ids(lines: readonly ChatStreamLine[]): string[] {
  return lines.map((line) => ('id' in line ? line.id : '?'));
}

describe('auth and request (5, 2.8)', () => {
  it('5 API key: Authorization Api-Key and sessionSettings required', async () => {
    const client = createChatClient({
      url: server.url,
      auth: { apiKey: TEST_API_KEY },
      sessionSettings: alice,
      resubscribe: fast,
    });
    const lines = await collect(client.stream({ input: 'Umsatz?' }));
    expect(lines.at(-1)).toMatchObject({ id: '__usage__' });

    const [sent] = server.chatRequests();
    expect(sent?.headers.authorization).toBe(`Api-Key ${TEST_API_KEY}`);
    expect(sent?.headers).not.toHaveProperty('x-service-auth-token');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.accept).toBe('application/x-ndjson, application/json, text/plain');
    expect(sent?.body).toMatchObject({ input: 'Umsatz?', sessionSettings: alice });

    // A request's own sessionSettings replaces the default whole.
    await collect(
      client.stream({
        input: 'again',
        chatId: chatIdOf(lines),
        sessionSettings: { externalId: 'alice', groups: ['sales'] },
      }),
    );
    expect(server.chatRequests()[1]?.body).toMatchObject({
      sessionSettings: { externalId: 'alice', groups: ['sales'] },
    });

    // No sessionSettings anywhere: a clear config error, and nothing sent.
    const bare = createChatClient({ url: server.url, auth: { apiKey: TEST_API_KEY } });
    const missing = await collectUntilError(bare.stream({ input: 'x' }));
    expect(ServiceConfigError.isInstance(missing.error)).toBe(true);
    expect((missing.error as ServiceConfigError).message).toMatch(/sessionSettings/);
    // Invalid sessionSettings (2.8: externalId lowercase): a validation error, and nothing sent.
    const invalid = await collectUntilError(
      bare.stream({ input: 'x', sessionSettings: { externalId: 'Alice Smith' } }),
    );
    expect(ServiceValidationError.isInstance(invalid.error)).toBe(true);
    expect((invalid.error as ServiceValidationError).problems.join()).toMatch(/externalId/);
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('5.6 token: X-Service-Auth-Token, sessionSettings not sent', async () => {
    let calls = 0;
    const client = tokenClient({
      auth: {
        token: async () => {
          calls += 1;
          return 'token-alice';
        },
      },
      sessionSettings: alice,
    });
    server.fault({ type: 'cut', afterLines: 2 });
    const lines = await collect(client.stream({ input: 'x', sessionSettings: { externalId: 'eve' } }));
    expect(lines.at(-1)).toMatchObject({ id: '__usage__' });

    const sent = server.chatRequests();
    expect(sent).toHaveLength(2);
    // The getter runs once per HTTP request, the resend included.
    expect(calls).toBe(2);
    for (const request of sent) {
      expect(request.headers['x-service-auth-token']).toBe('token-alice');
      expect(request.headers).not.toHaveProperty('authorization');
      expect(request.body).not.toHaveProperty('sessionSettings');
    }
  });

  it('5 no auth (proxy route): neither header, sessionSettings not sent', async () => {
    const client = createChatClient({ url: server.url, sessionSettings: alice });
    const { error } = await collectUntilError(client.stream({ input: 'x', sessionSettings: alice }));
    // This server is the service itself, which refuses an anonymous caller.
    expect(ServiceAuthError.isInstance(error)).toBe(true);
    const [sent] = server.chatRequests();
    expect(sent?.headers).not.toHaveProperty('authorization');
    expect(sent?.headers).not.toHaveProperty('x-service-auth-token');
    expect(sent?.body).not.toHaveProperty('sessionSettings');
  });

  it('2.8 messageId generated per new input, kept when given, absent on a read', async () => {
    const client = tokenClient();
    const first = await collect(client.stream({ input: 'one' }));
    const chatId = chatIdOf(first);
    await collect(client.stream({ input: 'two', chatId }));
    await collect(client.stream({ input: 'three', chatId, messageId: '1732512345678-message' }));
    await collect(client.stream({ chatId }));

    const bodies = server.chatRequests().map((request) => request.body as Record<string, unknown>);
    const [one, two, three, read] = bodies;
    expect(isMessageId(String(one?.messageId))).toBe(true);
    expect(isMessageId(String(two?.messageId))).toBe(true);
    expect(one?.messageId).not.toBe(two?.messageId);
    expect(three?.messageId).toBe('1732512345678-message');
    expect(read).toEqual({ chatId });
    // The user echo carries the generated id, so a UI can match it.
    expect(first.find((line) => 'role' in line && line.role === 'user')?.id).toBe(one?.messageId);
  });

  it('4.4 stream() is an AsyncIterable<StreamLine>', () => {
    expectTypeOf(tokenClient().stream).returns.toExtend<AsyncIterable<StreamLine>>();
    expectTypeOf(tokenClient().abort).returns.toEqualTypeOf<Promise<void>>();
  });

  it('2.8 an invalid request is refused before anything is sent', async () => {
    const { error } = await collectUntilError(tokenClient().stream({ input: 'x', messageId: '42-message' }));
    expect(ServiceValidationError.isInstance(error)).toBe(true);
    expect(server.chatRequests()).toHaveLength(0);
  });

  it('4.4 url may end with a slash or carry a query; the paths stay right', async () => {
    await collect(createChatClient({ url: `${server.url}/`, auth: { token: 'token-alice' } }).stream({ input: 'x' }));
    await collect(
      createChatClient({ url: `${server.url}?region=eu`, auth: { token: 'token-alice' } }).stream({ input: 'x' }),
    );
    expect(server.chatRequests().map((request) => request.path)).toEqual([
      `${AGENT_PATH}/chat/stream-chat-state`,
      `${AGENT_PATH}/chat/stream-chat-state`,
    ]);
  });

  it('createChatClient refuses options that cannot work', () => {
    expect(() => createChatClient({ url: '' })).toThrow(ServiceConfigError);
    expect(() => createChatClient({ url: server.url, auth: { apiKey: 'k', token: 't' } as never })).toThrow(/not both/);
    expect(() => createChatClient({ url: server.url, auth: { apiKey: '' } })).toThrow(ServiceConfigError);
    expect(() => createChatClient({ url: server.url, resubscribe: { retries: -1 } })).toThrow(ServiceConfigError);
    expect(() =>
      createChatClient({
        url: server.url,
        auth: { apiKey: 'k' },
        sessionSettings: { externalId: 'a', internalId: 'b@x.io' },
      }),
    ).toThrow(ServiceValidationError);
  });

  it('1 an API key where a document exists draws a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('document', {});
    try {
      createChatClient({ url: server.url, auth: { apiKey: 'k' }, sessionSettings: alice });
      expect(warn).toHaveBeenCalledTimes(1);
      createChatClient({ url: server.url, auth: { token: 't' } });
      createChatClient({
        url: server.url,
        auth: { apiKey: 'k' },
        sessionSettings: alice,
        dangerouslyAllowBrowser: true,
      });
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
      warn.mockRestore();
    }
  });
});

describe('stream lines (4.4, behaviour 1)', () => {
  it('1 yields every line in order; invalid and malformed lines are reported and skipped', async () => {
    nextReply = [
      { id: 'm1', role: 'assistant', content: 'Hallo ', isDelta: true, sort: 2 },
      { id: 'm2', role: 'robot', content: 'x' },
      new RawLine('{"id": "m3", not json'),
      { id: 'm1', role: 'assistant', content: 'Welt ✓', isDelta: true, sort: 2 },
    ];
    const invalid: [unknown, string][] = [];
    const malformed: string[] = [];
    const client = tokenClient({
      onInvalidLine: (value, reason) => invalid.push([value, reason]),
      onMalformedLine: (line) => malformed.push(line),
    });
    const lines = await collect(client.stream({ input: 'x' }));
    const transcript = server.transcript(chatIdOf(lines));
    expect(lines).toEqual(transcript.filter((line) => line.id !== 'm2'));
    expect(ids(lines)).toEqual([
      '__cutoff__',
      expect.stringMatching(/-message$/),
      'm1',
      'm1',
      '__state__',
      '__usage__',
    ]);
    expect(invalid).toEqual([[{ id: 'm2', role: 'robot', content: 'x' }, expect.stringContaining('role')]]);
    expect(malformed).toEqual(['{"id": "m3", not json']);
  });

  it('7 chat 400/404/500 typed', async () => {
    const client = tokenClient();
    server.fault({ type: 'status', status: 400, body: { error: 'input: must be a string' } });
    const bad = (await collectUntilError(client.stream({ input: 'x' }))).error;
    expect(ServiceHttpError.isInstance(bad)).toBe(true);
    expect(bad).toMatchObject({ status: 400, code: 'bad_request', serviceMessage: 'input: must be a string' });

    const missing = (await collectUntilError(client.stream({ input: 'x', chatId: 'no-such-chat' }))).error;
    expect(ServiceHttpError.isInstance(missing)).toBe(true);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', serviceMessage: 'Chat not found' });

    server.fault({ type: 'status', status: 500, body: { error: 'boom' } });
    const failed = (await collectUntilError(client.stream({ input: 'x' }))).error;
    expect(ServiceHttpError.isInstance(failed)).toBe(true);
    expect(failed).toMatchObject({ status: 500, code: 'server_error', serviceMessage: 'boom' });

    // Before the stream started, a 502 is an answer, not a dropped connection: no resend.
    server.fault({ type: 'status', status: 502, body: 'Bad gateway' });
    const gateway = (await collectUntilError(client.stream({ input: 'x' }))).error;
    expect(gateway).toMatchObject({ status: 502, code: 'server_error' });
    expect(server.chatRequests()).toHaveLength(4);
  });

  it('7 auth failure: JSON-RPC error object in HTTP 200', async () => {
    const client = createChatClient({
      url: server.url,
      auth: { apiKey: 'wrong-key' },
      sessionSettings: alice,
      resubscribe: fast,
    });
    const { lines, error } = await collectUntilError(client.stream({ input: 'x' }));
    expect(lines).toEqual([]);
    expect(ServiceAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'unauthorized',
      status: undefined,
      rpcError: { code: -32001, message: 'Unauthorized' },
    });
    expect(server.chatRequests()).toHaveLength(1);

    server.fault({ type: 'status', status: 403, body: { error: 'agentId is required for Api-Key authentication' } });
    const refused = (await collectUntilError(tokenClient().stream({ input: 'x' }))).error;
    expect(ServiceAuthError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ status: 403, message: expect.stringContaining('agentId is required') });
  });

  it('3 Streaming for thread is in progress as 409 and as error line', async () => {
    nextReply = [{ id: 'm1', role: 'assistant', content: 'working', isDelta: true, sort: 2 }, HOLD];
    const client = tokenClient();
    const running = collect(client.stream({ input: 'first' }));
    const chatId = await server.held();

    const asStatus = (await collectUntilError(client.stream({ input: 'second', chatId }))).error;
    expect(StreamingInProgressError.isInstance(asStatus)).toBe(true);
    expect(asStatus).toMatchObject({ status: 409, code: 'streaming_in_progress' });

    server.busy = 'line';
    const asLine = await collectUntilError(client.stream({ input: 'third', chatId }));
    expect(StreamingInProgressError.isInstance(asLine.error)).toBe(true);
    expect(asLine.error).toMatchObject({ status: undefined, code: 'streaming_in_progress' });

    server.release();
    expect((await running).at(-1)).toMatchObject({ id: '__usage__' });
  });

  it('7 an {"error"} line mid-stream throws ServiceStreamError after the lines before it', async () => {
    server.fault({ type: 'errorLine', afterLines: 3, message: 'The agent failed' });
    const { lines, error } = await collectUntilError(tokenClient().stream({ input: 'x' }));
    expect(ids(lines)).toEqual(['__cutoff__', expect.stringMatching(/-message$/), 'a1']);
    expect(ServiceStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ message: 'The agent failed', code: 'stream_error' });
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe('abort (4.4)', () => {
  it('4.4 abort: 204 resolves, 403/404 reject', async () => {
    nextReply = [{ id: 'm1', role: 'assistant', content: 'working', isDelta: true, sort: 2 }, HOLD];
    const owner = createChatClient({ url: server.url, auth: { apiKey: TEST_API_KEY }, sessionSettings: alice });
    const running = collect(owner.stream({ input: 'x' }));
    const chatId = await server.held();

    const stranger = createChatClient({
      url: server.url,
      auth: { apiKey: TEST_API_KEY },
      sessionSettings: { externalId: 'mallory' },
    });
    const forbidden = await stranger.abort(chatId).catch((error: unknown) => error);
    expect(ServiceHttpError.isInstance(forbidden)).toBe(true);
    expect(forbidden).toMatchObject({ status: 403, code: 'forbidden' });

    const unknown = await owner.abort('no-such-chat').catch((error: unknown) => error);
    expect(ServiceHttpError.isInstance(unknown)).toBe(true);
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });

    const wrongToken = createChatClient({ url: server.url, auth: { token: 'not-a-token' } });
    const unauthorized = await wrongToken.abort(chatId).catch((error: unknown) => error);
    expect(ServiceAuthError.isInstance(unauthorized)).toBe(true);
    expect(unauthorized).toMatchObject({ status: 401 });

    await expect(owner.abort(chatId)).resolves.toBeUndefined();
    await running;

    const sent = server.abortRequests();
    expect(sent.map((request) => request.body)).toEqual([
      { chatId, sessionSettings: { externalId: 'mallory' } },
      { chatId: 'no-such-chat', sessionSettings: alice },
      { chatId },
      { chatId, sessionSettings: alice },
    ]);
    expect(sent[3]?.headers.authorization).toBe(`Api-Key ${TEST_API_KEY}`);
    expect(sent[3]?.headers['content-type']).toBe('application/json');
  });

  it('4.4 abort with a token: X-Service-Auth-Token, no sessionSettings', async () => {
    const client = tokenClient({ sessionSettings: alice });
    const chatId = chatIdOf(await collect(client.stream({ input: 'x' })));
    // The chat has just completed: still abortable (4.4), 204.
    await client.abort(chatId, { sessionSettings: alice });
    const [sent] = server.abortRequests();
    expect(sent?.body).toEqual({ chatId });
    expect(sent?.headers['x-service-auth-token']).toBe('token-alice');
    expect(sent?.headers).not.toHaveProperty('authorization');
  });

  it('4.4 aborted stream ends normally with __aborted__', async () => {
    nextReply = [
      { id: 'm1', role: 'assistant', content: 'working', isDelta: true, sort: 2 },
      HOLD,
      { id: 'm1', role: 'assistant', content: ' never', isDelta: true },
    ];
    const client = tokenClient();
    const running = collect(client.stream({ input: 'x' }));
    const chatId = await server.held();
    await client.abort(chatId);
    const lines = await running;
    expect(ids(lines)).toEqual(['__cutoff__', expect.stringMatching(/-message$/), 'm1', '__aborted__', '__usage__']);
    expect(lines.at(-2)).toMatchObject({ type: 'abort', code: 'chat_aborted' });
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe('resubscribe (3, behaviour 1)', () => {
  it('3 resubscribe after a cut connection yields each line once (replay of the same lines)', async () => {
    server.fault({ type: 'cut', afterLines: 4 });
    const events: ResubscribeEvent[] = [];
    const lines = await collect(
      tokenClient({ onResubscribe: (event) => events.push(event) }).stream({ input: 'Umsatz?' }),
    );
    const chatId = chatIdOf(lines);
    expect(lines).toEqual(server.transcript(chatId));

    const [first, second] = server.chatRequests();
    expect(server.chatRequests()).toHaveLength(2);
    // The same body, same messageId, plus the chatId of __cutoff__ so the resend joins the thread.
    expect(second?.body).toEqual({ ...(first?.body as object), chatId });
    expect(events).toMatchObject([{ attempt: 1, reason: 'connection_lost', chatId }]);
  });

  it('3 resubscribe yields each line once when the replay merges deltas into bigger chunks', async () => {
    server.replay = 'coalesced';
    // Cut when the second chunk of f1 comes: the replay then carries f1 as one chunk, half of it seen.
    server.fault({ type: 'cut', afterLines: 7 });
    const lines = await collect(tokenClient().stream({ input: 'Umsatz?' }));
    const transcript = server.transcript(chatIdOf(lines));
    // How much of f1 the replay merges depends on how far the run got: compare the text, not the chunks.
    const f1 = (list: readonly object[]) =>
      list.filter((line) => (line as StreamMessage).id === 'f1') as StreamMessage[];
    expect(
      f1(lines)
        .map((line) => line.content)
        .join(''),
    ).toBe('Umsatz wächst um 12 % 📈.');
    expect(f1(lines)[0]).toEqual(f1(transcript)[0]);
    expect(f1(lines).at(-1)).toMatchObject({ isInProcess: false });
    expect(lines.filter((line) => (line as StreamMessage).id !== 'f1')).toEqual(
      transcript.filter((line) => line.id !== 'f1'),
    );
  });

  it('3 resubscribe to a replay in the read-a-thread form (whole messages) then the continuation', async () => {
    server.replay = 'thread';
    nextReply = ['Der ', 'Umsatz ', 'wächst ', 'um ', '12 %', ' 📈'].map((content, index) => ({
      id: 'f1',
      role: 'assistant',
      content,
      graphPath: ['final'],
      isInProcess: index < 5,
      isDelta: true,
      sort: 2,
    }));
    server.fault({ type: 'cut', afterLines: 4 });
    const lines = await collect(tokenClient().stream({ input: 'Umsatz?' }));
    const transcript = server.transcript(chatIdOf(lines));

    const messages = (list: readonly object[]) =>
      foldMessages(
        list.filter(
          (line): line is Record<string, unknown> =>
            'role' in line && !String((line as StreamMessage).id).startsWith('__'),
        ),
      );
    expect(messages(lines)).toEqual(messages(transcript));
    expect(messages(lines).find((message) => message.id === 'f1')?.content).toBe('Der Umsatz wächst um 12 % 📈');
    // Sentinels and the user echo come once.
    const counts = new Map<string, number>();
    for (const id of ids(lines)) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(counts.get('__cutoff__')).toBe(1);
    expect(counts.get(String((server.chatRequests()[0]?.body as { messageId: string }).messageId))).toBe(1);
    expect(counts.get('__usage__')).toBe(1);
    expect(lines.at(-1)).toMatchObject({ id: '__usage__' });
  });

  it('3 resubscribe retries are bounded: ConnectionLostError with attempts', async () => {
    server.fault({ type: 'cut', afterLines: 3 }, Infinity);
    const { lines, error } = await collectUntilError(
      tokenClient({ resubscribe: { ...fast, retries: 2 } }).stream({ input: 'x' }),
    );
    expect(ConnectionLostError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 2, code: 'connection_lost' });
    // What came before the loss stays yielded, once.
    expect(ids(lines)).toEqual(['__cutoff__', expect.stringMatching(/-message$/), 'a1']);
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('3 a stream cut before __cutoff__ is resent only when the request named its thread', async () => {
    // A new thread: a resend without the chat id would start a second thread and agent run.
    server.fault({ type: 'cut', afterLines: 0 });
    const fresh = await collectUntilError(tokenClient().stream({ input: 'x' }));
    expect(ConnectionLostError.isInstance(fresh.error)).toBe(true);
    expect(fresh.error).toMatchObject({ attempts: 0, message: expect.stringContaining('before __cutoff__') });
    expect(fresh.lines).toEqual([]);
    expect(server.chatRequests()).toHaveLength(1);

    const chatId = chatIdOf(await collect(tokenClient().stream({ input: 'first' })));
    server.fault({ type: 'cut', afterLines: 0 });
    const lines = await collect(tokenClient().stream({ input: 'second', chatId }));
    expect(lines).toEqual(server.transcript(chatId));
    expect(server.chatRequests()).toHaveLength(4);
  });

  it('3 a 503 while resubscribing counts as one more failed attempt, not as the answer', async () => {
    server.fault({ type: 'cut', afterLines: 3 });
    server.fault({ type: 'status', status: 503, body: { error: 'restarting' } });
    const lines = await collect(tokenClient().stream({ input: 'x' }));
    expect(lines).toEqual(server.transcript(chatIdOf(lines)));
    expect(server.chatRequests()).toHaveLength(3);
  });

  it('3 an unreachable service: no resend for a new thread, bounded resends for a named one', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const events: ResubscribeEvent[] = [];
    const client = createChatClient({
      url: `http://127.0.0.1:${port}${AGENT_PATH}`,
      auth: { token: 'token-alice' },
      resubscribe: { ...fast, retries: 2 },
      onResubscribe: (event) => events.push(event),
    });
    const fresh = (await collectUntilError(client.stream({ input: 'x' }))).error;
    expect(ConnectionLostError.isInstance(fresh)).toBe(true);
    expect(fresh).toMatchObject({ attempts: 0, message: expect.stringContaining('Could not reach') });
    expect(events).toHaveLength(0);

    const named = (await collectUntilError(client.stream({ input: 'x', chatId: 'c1' }))).error;
    expect(ConnectionLostError.isInstance(named)).toBe(true);
    expect(named).toMatchObject({ attempts: 2 });
    expect(events.map((event) => event.attempt)).toEqual([1, 2]);
  });

  it('3 resubscribe off: the first loss ends the stream', async () => {
    server.fault({ type: 'cut', afterLines: 3 });
    const { lines, error } = await collectUntilError(tokenClient({ resubscribe: false }).stream({ input: 'x' }));
    expect(ConnectionLostError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 0 });
    expect(lines).toHaveLength(3);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('1 __suspended__: the same body is resent and the stream resumes; the frame is not yielded', async () => {
    server.fault({ type: 'suspend', afterLines: 3 });
    const events: ResubscribeEvent[] = [];
    const lines = await collect(tokenClient({ onResubscribe: (event) => events.push(event) }).stream({ input: 'x' }));
    const chatId = chatIdOf(lines);
    expect(lines).toEqual(server.transcript(chatId));
    expect(ids(lines)).not.toContain('__suspended__');
    const [first, second] = server.chatRequests();
    expect(second?.body).toEqual({ ...(first?.body as object), chatId });
    expect(events).toMatchObject([{ reason: 'suspended', cause: { id: '__suspended__', code: 'chat_suspended' } }]);
  });

  it('1 __suspended__ with resubscribe off: ConnectionLostError caused by chat_suspended', async () => {
    server.fault({ type: 'suspend', afterLines: 2 });
    const { error } = await collectUntilError(tokenClient({ resubscribe: false }).stream({ input: 'x' }));
    expect(ConnectionLostError.isInstance(error)).toBe(true);
    expect((error as ConnectionLostError).cause).toMatchObject({ code: 'chat_suspended' });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('1 __suspended__ that is not retryable ends the stream with chat_suspended', async () => {
    server.fault({ type: 'suspend', afterLines: 2, retryable: false });
    const { lines, error } = await collectUntilError(tokenClient().stream({ input: 'x' }));
    expect(lines).toHaveLength(2);
    expect(ServiceStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'chat_suspended' });
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe('local cancellation', () => {
  it('breaking out of the loop ends the stream without a resend', async () => {
    const client = tokenClient();
    for await (const line of client.stream({ input: 'x' })) {
      if (line.id === '__cutoff__') break;
    }
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('a local signal abort throws ServiceAbortError and never resends', async () => {
    nextReply = [{ id: 'm1', role: 'assistant', content: 'working', isDelta: true, sort: 2 }, HOLD];
    const controller = new AbortController();
    const lines: ChatStreamLine[] = [];
    let error: unknown;
    try {
      for await (const line of tokenClient().stream({ input: 'x' }, { signal: controller.signal })) {
        lines.push(line);
        if (line.id === 'm1') controller.abort();
      }
    } catch (caught) {
      error = caught;
    }
    expect(ServiceAbortError.isInstance(error)).toBe(true);
    expect(ids(lines)).toEqual(['__cutoff__', expect.stringMatching(/-message$/), 'm1']);
    expect(server.chatRequests()).toHaveLength(1);
    // A local abort stops reading only; the service is told nothing.
    expect(server.abortRequests()).toHaveLength(0);
  });

  it('a local signal abort during the backoff wait ends it at once, without a resend', async () => {
    server.fault({ type: 'cut', afterLines: 2 });
    const controller = new AbortController();
    // A wait far longer than the test timeout: only the abort can end it.
    const client = tokenClient({
      resubscribe: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
      onResubscribe: () => controller.abort(),
    });
    const { error } = await collectUntilError(client.stream({ input: 'x' }, { signal: controller.signal }));
    expect(ServiceAbortError.isInstance(error)).toBe(true);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const { error } = await collectUntilError(tokenClient().stream({ input: 'x' }, { signal: AbortSignal.abort() }));
    expect(ServiceAbortError.isInstance(error)).toBe(true);
    await expect(tokenClient().abort('c1', { signal: AbortSignal.abort() })).rejects.toSatisfy(
      ServiceAbortError.isInstance.bind(ServiceAbortError),
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('createReplayFilter (the dedupe of a resubscription)', () => {
  const delta = (content: string, extra: Partial<StreamMessage> = {}): StreamMessage => ({
    id: 'm',
    role: 'assistant',
    content,
    isDelta: true,
    ...extra,
  });

  it('skips replayed text, trims a straddling chunk, passes new text', () => {
    const filter = createReplayFilter();
    filter.accept(delta('ab'));
    filter.accept(delta('ab'));
    filter.resume();
    // Deltas may repeat text legitimately: "abab" was yielded, the replay's first "ab" and second "ab" are both old.
    expect(filter.accept(delta('ab'))).toBeUndefined();
    expect(filter.accept(delta('abc'))).toEqual(delta('c'));
    expect(filter.accept(delta('d'))).toEqual(delta('d'));
  });

  it('turns a replay that disagrees with what was yielded into a replacement with the whole text', () => {
    const filter = createReplayFilter();
    filter.accept(delta('Hello'));
    filter.resume();
    expect(filter.accept(delta('Help'))).toEqual({ ...delta('Help'), isDelta: false });
  });

  it('skips a replacement already yielded, even an older version, and yields a new one', () => {
    const filter = createReplayFilter();
    const start: StreamMessage = {
      id: 't',
      role: 'assistant',
      toolCall: { name: 'serviceMeta', input: '{}' },
      isInProcess: true,
      isDelta: false,
    };
    const done: StreamMessage = {
      ...start,
      toolCall: { name: 'serviceMeta', input: '{}', result: '{}' },
      isInProcess: false,
    };
    filter.accept(start);
    filter.accept(done);
    filter.resume();
    expect(filter.accept(start)).toBeUndefined();
    expect(filter.accept(done)).toBeUndefined();
    const whole: StreamMessage = { id: 'm', role: 'assistant', content: 'all', isDelta: false };
    expect(filter.accept(whole)).toBe(whole);
  });

  it('passes a textless delta the first connection never yielded', () => {
    const filter = createReplayFilter();
    filter.accept(delta('text', { isInProcess: true }));
    filter.resume();
    expect(filter.accept(delta('text', { isInProcess: true }))).toBeUndefined();
    const finished = delta('', { isInProcess: false });
    expect(filter.accept(finished)).toBe(finished);
  });
});

describe('createChatClient: line limit', () => {
  it('fails with line_too_long on a line over maxLineBytes, without resending', async () => {
    let calls = 0;
    const encoder = new TextEncoder();
    const fetchLong: typeof fetch = async () => {
      calls += 1;
      const cutoff = JSON.stringify({
        id: '__cutoff__',
        role: 'assistant',
        state: { isStreaming: true, chatId: 'c1' },
        sort: 0,
      });
      const long = JSON.stringify({ id: 'm1', role: 'assistant', content: 'x'.repeat(500), isDelta: false, sort: 1 });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          // The long line arrives in small pieces, so no single chunk is over the limit.
          controller.enqueue(encoder.encode(`${cutoff}\n`));
          const bytes = encoder.encode(`${long}\n`);
          for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
          controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
    };
    const client = createChatClient({
      url: 'https://ai.example.com/agents/1',
      fetch: fetchLong,
      maxLineBytes: 200,
      resubscribe: fast,
    });
    const { lines, error } = await collectUntilError(client.stream({ input: 'hi' }));
    expect(ids(lines)).toEqual(['__cutoff__']);
    expect(ServiceStreamError.isInstance(error)).toBe(true);
    expect((error as ServiceStreamError).code).toBe('line_too_long');
    expect(calls).toBe(1);
  });
});

describe('createChatClient: the end of a completed answer', () => {
  const encoder = new TextEncoder();
  const LINES: readonly Record<string, unknown>[] = [
    { id: '__cutoff__', role: 'assistant', state: { isStreaming: true, chatId: 'c1' }, sort: 0 },
    { id: 'm1', role: 'assistant', content: 'Revenue grew by 12 %', isDelta: false, sort: 1 },
    {
      id: '__usage__',
      type: 'usage',
      usage: {
        models: ['m'],
        llmCalls: 1,
        inputTokens: 1,
        outputTokens: 1,
        cacheWriteTokens: 0,
        cacheReadTokens: 0,
        totalTokens: 2,
      },
    },
  ];

  /**
   * A body that sends every line, cut every 5 bytes so `__usage__` straddles chunks, and then
   * stays open until `end()`: the time a real connection takes to deliver its end. Records whether
   * it was cancelled and whether the request's signal was aborted before or after the end (a
   * browser may still be completing the request then, and lists it as cancelled).
   */
  function heldBody(lines = LINES) {
    let end!: () => void;
    const seen = { cancelled: false, abortedBeforeEnd: false, ended: false, abortedAfterEnd: false };
    const fetchHeld: typeof fetch = async (_input, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = encoder.encode(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
          for (let at = 0; at < bytes.length; at += 5) controller.enqueue(bytes.slice(at, at + 5));
          end = () => {
            seen.ended = true;
            controller.close();
          };
        },
        cancel() {
          seen.cancelled = true;
        },
      });
      init?.signal?.addEventListener('abort', () => {
        if (seen.ended) seen.abortedAfterEnd = true;
        else seen.abortedBeforeEnd = true;
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
    };
    return { fetch: fetchHeld, seen, end: () => end() };
  }

  it('reads the body to its end after __usage__ instead of cancelling it, while the iterator ends at once', async () => {
    const held = heldBody();
    const client = createChatClient({ url: 'https://partner.example/api/service', fetch: held.fetch });
    const lines = await collect(client.stream({ input: 'hi' }));
    expect(ids(lines)).toEqual(['__cutoff__', 'm1', '__usage__']);
    // The iterator is done; the body's end has not come yet and nothing cancelled it.
    expect(held.seen).toEqual({ cancelled: false, abortedBeforeEnd: false, ended: false, abortedAfterEnd: false });
    held.end();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(held.seen).toEqual({ cancelled: false, abortedBeforeEnd: false, ended: true, abortedAfterEnd: false });
  });

  it('a consumer that stops at __usage__ still lets the body end', async () => {
    const held = heldBody();
    const client = createChatClient({ url: 'https://partner.example/api/service', fetch: held.fetch });
    for await (const line of client.stream({ input: 'hi' })) if (line.id === '__usage__') break;
    held.end();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(held.seen).toEqual({ cancelled: false, abortedBeforeEnd: false, ended: true, abortedAfterEnd: false });
  });

  it('a stream stopped with __aborted__ is read to its end, and its request not aborted after it', async () => {
    const held = heldBody([LINES[0]!, { id: '__aborted__', type: 'abort', code: 'chat_aborted', error: 'Stopped' }]);
    const client = createChatClient({ url: 'https://partner.example/api/service', fetch: held.fetch });
    const reading = collect(client.stream({ input: 'hi' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    held.end();
    expect(ids(await reading)).toEqual(['__cutoff__', '__aborted__']);
    expect(held.seen).toEqual({ cancelled: false, abortedBeforeEnd: false, ended: true, abortedAfterEnd: false });
  });

  it('a body still open bodyEndTimeoutMs after __usage__ is cancelled', async () => {
    const held = heldBody();
    const client = createChatClient({
      url: 'https://partner.example/api/service',
      fetch: held.fetch,
      bodyEndTimeoutMs: 30,
    });
    const started = Date.now();
    expect(ids(await collect(client.stream({ input: 'hi' })))).toEqual(['__cutoff__', 'm1', '__usage__']);
    await vi.waitFor(() => expect(held.seen.cancelled).toBe(true));
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(held.seen.abortedBeforeEnd).toBe(true);
    expect(() => createChatClient({ url: 'https://x.example', bodyEndTimeoutMs: -1 })).toThrow(/bodyEndTimeoutMs/);
  });
});
