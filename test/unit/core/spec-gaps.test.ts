// @vitest-environment node
/**
 * behaviour 1 rules of the chat stream that the other core tests left without a test of
 * their own: the NDJSON body may be served as `application/json` or `text/plain` (not only
 * `application/x-ndjson`), and the JSON-RPC error object is recognised whatever the content type.
 * A real `node:http` server on 127.0.0.1 port 0 answers with a fixed transcript.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChatClient, type ChatStreamLine } from '../../../src/core/chat-client';
import { ServiceAuthError } from '../../../src/core/errors';
import { createThreadStore } from '../../../src/core/thread-store';

const CHAT_ID = 'a1b2c3d4-08d7-40b9-8b1c-e7e3a698647e';
const MESSAGE_ID = '1732512345678-message';

const TRANSCRIPT = [
  { id: '__cutoff__', role: 'assistant', state: { isStreaming: true, chatId: CHAT_ID }, sort: 0 },
  { id: MESSAGE_ID, role: 'user', content: 'Show me revenue', isDelta: false, sort: 1 },
  { id: 'a1', role: 'assistant', content: 'Revenue ', graphPath: ['final'], isDelta: true, isInProcess: true, sort: 2 },
  { id: 'a1', role: 'assistant', content: 'grew.', graphPath: ['final'], isDelta: true, isInProcess: false, sort: 2 },
  { id: '__state__', role: 'assistant', state: { messages: [] }, isDelta: false, sort: 3 },
  {
    id: '__usage__',
    type: 'usage',
    usage: {
      models: ['m'],
      llmCalls: 1,
      inputTokens: 10,
      outputTokens: 2,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      totalTokens: 12,
    },
  },
];
const JSON_RPC_ERROR = { jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null };

let server: Server;
let url: string;

beforeAll(async () => {
  // The path says what to answer: /{content type}/{transcript|auth-error}/chat/stream-chat-state.
  server = createServer((request, response) => {
    const [, kind, body] = (request.url ?? '').split('/');
    const type = kind === 'plain' ? 'text/plain; charset=utf-8' : 'application/json';
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': type });
      if (body === 'auth-error') {
        response.end(JSON.stringify(JSON_RPC_ERROR));
        return;
      }
      // Two writes that split a line, as a real stream may.
      const text = TRANSCRIPT.map((line) => JSON.stringify(line)).join('\n') + '\n';
      response.write(text.slice(0, 57));
      response.end(text.slice(57));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function collect(base: string): Promise<ChatStreamLine[]> {
  const client = createChatClient({ url: base, auth: { token: 'token' }, resubscribe: false });
  const lines: ChatStreamLine[] = [];
  for await (const line of client.stream({ input: 'Show me revenue', messageId: MESSAGE_ID })) lines.push(line);
  return lines;
}

describe('behaviour 1 stream content types', () => {
  it.each([
    ['application/json', 'json'],
    ['text/plain', 'plain'],
  ])(
    'behaviour 1: an NDJSON body served as %s is read line by line, to the final answer and usage',
    async (_type, kind) => {
      const lines = await collect(`${url}/${kind}/transcript`);
      expect(lines.map((line) => line.id)).toEqual(TRANSCRIPT.map((line) => line.id));
      const store = createThreadStore();
      for (const line of lines) store.apply(line);
      const snapshot = store.getSnapshot();
      expect(snapshot.chatId).toBe(CHAT_ID);
      expect(snapshot.finalAnswer?.content).toBe('Revenue grew.');
      expect(snapshot.usage?.totalTokens).toBe(12);
    },
  );

  it.each([
    ['application/json', 'json'],
    ['text/plain', 'plain'],
  ])('7, behaviour 1: the JSON-RPC error object in a 200 served as %s is a ServiceAuthError', async (_type, kind) => {
    await expect(collect(`${url}/${kind}/auth-error`)).rejects.toSatisfy(
      (error: unknown) => error instanceof ServiceAuthError,
    );
  });
});
