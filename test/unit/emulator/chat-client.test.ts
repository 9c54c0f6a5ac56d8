// @vitest-environment node
/**
 * The core chat client and thread store against the emulator, through real sockets: what a
 * partner app does (4.4, 3, behaviour 1), including the faults the client must survive.
 */
import { describe, expect, it } from 'vitest';
import {
  createChatClient,
  type ChatClientOptions,
  type ChatStreamLine,
  type ResubscribeEvent,
} from '../../../src/core/chat-client';
import {
  ServiceAuthError,
  ServiceHttpError,
  ServiceStreamError,
  StreamingInProgressError,
} from '../../../src/core/errors';
import { createThreadStore, type ChatMessage } from '../../../src/core/thread-store';
import { ACCOUNT_NAME, ADMIN_API_KEY, createManualClock, fetchWithFaultOnce } from '../../../src/emulator';
import { useEmulator } from '../../helpers/emulator';
import { chat, chatToken, type Line } from './chat-helpers';

const clock = createManualClock(Date.now());

const emulator = useEmulator({ chatPace: 'instant', clock });

const alice = { externalId: 'alice@partner.test' };
const fast = { baseDelayMs: 1, maxDelayMs: 2 };

function client(options: Partial<ChatClientOptions> = {}) {
  return createChatClient({
    url: emulator.aiUrl,
    auth: { apiKey: ADMIN_API_KEY },
    sessionSettings: alice,
    resubscribe: fast,
    ...options,
  });
}

/** Streams into a new thread store and returns it with the lines. */
async function run(lines: AsyncIterable<ChatStreamLine>) {
  const store = createThreadStore();
  const seen: ChatStreamLine[] = [];
  store.begin();
  for await (const line of lines) {
    seen.push(line);
    store.apply(line);
  }
  store.end();
  return { store, seen, snapshot: store.getSnapshot() };
}

/** The thread as the emulator reads it back (`chatId` without `input`): whole messages. */
async function threadOf(chatId: string): Promise<Line[]> {
  const { lines } = await chat(emulator, { chatId, sessionSettings: alice });
  return lines.slice(1, -2);
}

/** What a store shows must be exactly the thread the emulator holds: one copy of each message, whole. */
function expectSameThread(messages: readonly ChatMessage[], thread: readonly Line[]): void {
  expect(messages.map((message) => message.id)).toEqual(thread.map((message) => message['id']));
  messages.forEach((message, index) => {
    const expected = thread[index]!;
    expect(message.content).toBe(expected['content'] ?? '');
    expect(message.thinking).toBe(expected['thinking'] ?? '');
    expect(message.toolCall?.raw.result).toBe((expected['toolCall'] as { result?: string } | undefined)?.result);
  });
}

describe('4.4 createChatClient + createThreadStore against the emulator', () => {
  it('4.4 a full answer: the store selects the final answer, tool calls are parsed, usage arrives', async () => {
    const { snapshot } = await run(client().stream({ input: 'Who are our top 10 customers?' }));
    expect(snapshot.status).toBe('ready');
    expect(snapshot.chatId).toMatch(/^[0-9a-f-]{36}$/);
    expect(snapshot.finalAnswer?.graphPath).toEqual(['final']);
    expect(snapshot.finalAnswer?.content).toMatch(/top 10 customers/);
    expect(snapshot.usage?.llmCalls).toBe(3);
    const sql = snapshot.messages.find((message) => message.toolCall?.name === 'serviceSqlApi')!;
    expect(sql.toolCall).toMatchObject({
      status: 'complete',
      result: { kind: 'serviceSqlApi', value: { totalRows: 10 } },
    });
    expectSameThread(snapshot.messages, await threadOf(snapshot.chatId!));
  });

  it('5 rule 5 a deployment token (refreshed by a getter), on the agent path and the deployment form', async () => {
    const token = () => chatToken(clock, { externalId: 'pat@partner.test', scope: ['chat'] });
    const agent = await run(
      createChatClient({ url: emulator.aiUrl, auth: { token } }).stream({ input: 'revenue by region' }),
    );
    expect(agent.snapshot.finalAnswer?.content).toMatch(/Revenue by region/);
    const deployment = createChatClient({
      url: `${emulator.url}/api/v1/public/${ACCOUNT_NAME}/deployments/1`,
      auth: { token },
    });
    const viaDeployment = await run(deployment.stream({ input: 'orders by status' }));
    expect(viaDeployment.snapshot.finalAnswer?.content).toMatch(/orders/);
  });

  it('7 an authentication failure (JSON-RPC error in a 200) is a ServiceAuthError', async () => {
    const bad = createChatClient({ url: emulator.aiUrl, auth: { apiKey: 'svc_not_a_key' }, sessionSettings: alice });
    await expect(run(bad.stream({ input: 'orders by status' }))).rejects.toSatisfy(
      (error: unknown) => ServiceAuthError.isInstance(error) && (error as ServiceAuthError).rpcError?.code === -32001,
    );
  });

  it('3 resubscribe after cut-after: the client resends, the replay is deduplicated, one copy of every message', async () => {
    const events: ResubscribeEvent[] = [];
    const faulty = client({ fetch: fetchWithFaultOnce('cut-after=9'), onResubscribe: (event) => events.push(event) });
    const { snapshot } = await run(faulty.stream({ input: 'Show me revenue by month' }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ reason: 'connection_lost', chatId: snapshot.chatId });
    expect(snapshot.status).toBe('ready');
    expect(snapshot.finalAnswer?.content).toMatch(/monthly revenue/);
    expectSameThread(snapshot.messages, await threadOf(snapshot.chatId!));
  });

  it('behaviour 1 suspend and resume: __suspended__ makes the client resend the same body; replay then continuation', async () => {
    const events: ResubscribeEvent[] = [];
    const faulty = client({
      fetch: fetchWithFaultOnce('suspend-after=12'),
      onResubscribe: (event) => events.push(event),
    });
    const { snapshot, seen } = await run(faulty.stream({ input: 'How many orders are in each status?' }));
    expect(events.map((event) => event.reason)).toEqual(['suspended']);
    expect(seen.filter((line) => line.id === '__cutoff__')).toHaveLength(1);
    expect(snapshot.status).toBe('ready');
    expectSameThread(snapshot.messages, await threadOf(snapshot.chatId!));
  });

  it('4.4 abort: the stream ends with __aborted__ and __usage__, the iterator ends normally, the store says aborted', async () => {
    const chatClient = client({ fetch: fetchWithFaultOnce('hold-after=5') });
    const store = createThreadStore();
    const seen: ChatStreamLine[] = [];
    for await (const line of chatClient.stream({ input: 'revenue by region' })) {
      seen.push(line);
      store.apply(line);
      if (seen.length === 5) await chatClient.abort(store.getSnapshot().chatId!);
    }
    expect(seen.slice(-2).map((line) => line.id)).toEqual(['__aborted__', '__usage__']);
    expect(store.getSnapshot().status).toBe('aborted');
    expect(store.getSnapshot().finalAnswer).toBeUndefined();
  });

  it("3, 7 a new message while the thread streams: StreamingInProgressError; abort of another user's thread: 403", async () => {
    const chatClient = client({ fetch: fetchWithFaultOnce('hold-after=4') });
    const lines = chatClient.stream({ input: 'orders by status' });
    const store = createThreadStore();
    for (let index = 0; index < 4; index += 1) store.apply((await lines.next()).value);
    const chatId = store.getSnapshot().chatId!;
    await expect(run(client().stream({ input: 'revenue by region', chatId }))).rejects.toBeInstanceOf(
      StreamingInProgressError,
    );
    const mallory = client({ sessionSettings: { externalId: 'mallory' } });
    await expect(mallory.abort(chatId)).rejects.toSatisfy(
      (error: unknown) => ServiceHttpError.isInstance(error) && (error as ServiceHttpError).status === 403,
    );
    await chatClient.abort(chatId);
    for await (const line of lines) store.apply(line);
    expect(store.getSnapshot().status).toBe('aborted');
  });

  it('7 server failure: status=500 is a ServiceHttpError; error-after is a ServiceStreamError', async () => {
    await expect(
      run(client({ fetch: fetchWithFaultOnce('server-error') }).stream({ input: 'orders by status' })),
    ).rejects.toSatisfy(
      (error: unknown) => ServiceHttpError.isInstance(error) && (error as ServiceHttpError).status === 500,
    );
    await expect(
      run(client({ fetch: fetchWithFaultOnce('error-after=3') }).stream({ input: 'orders by status' })),
    ).rejects.toBeInstanceOf(ServiceStreamError);
  });
});
