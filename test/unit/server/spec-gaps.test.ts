// @vitest-environment node
/**
 * The abort route of createChatProxyHandler, proxied the same way as the stream route (4.4 abort,
 * 7): like the stream route it acts only as the server-decided user. A browser cannot abort another
 * viewer's thread by naming that viewer in its body. Real sockets: the proxy is served by
 * `node:http` with `toNodeHandler`, the upstream is the emulator.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNdjson } from '../../../src/core';
import { createMessageId } from '../../../src/core/protocol/chat';
import { createChatProxyHandler, toNodeHandler } from '../../../src/server';
import { useEmulator } from '../../helpers/emulator';
import { recordingFetch, type SeenRequest } from './helpers';

const emulator = useEmulator({ port: 0, chatPace: 'instant' });
let server: Server;
let url: string;
let upstream: SeenRequest[];

beforeAll(async () => {
  const recorder = recordingFetch();
  upstream = recorder.seen;
  const handler = createChatProxyHandler({
    aiUrl: emulator.aiUrl,
    apiKey: emulator.apiKey,
    fetch: recorder.fetch,
    // `x-user` stands for the host's own authentication.
    resolveSessionSettings: (request) => {
      const user = request.headers.get('x-user');
      return user ? { externalId: user } : null;
    },
  });
  const node = toNodeHandler(handler);
  server = createServer((req, res) => void node(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function post(path: 'stream-chat-state' | 'abort', body: unknown, user: string | null): Promise<Response> {
  return fetch(`${url}/chat/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(user === null ? {} : { 'x-user': user }) },
    body: JSON.stringify(body),
  });
}

/** A whole answer through the proxy as `user`; returns its chatId. */
async function converse(user: string): Promise<string> {
  const response = await post('stream-chat-state', { input: 'orders by status', messageId: createMessageId() }, user);
  expect(response.status).toBe(200);
  let chatId: string | undefined;
  for await (const line of readNdjson(response.body!)) {
    const record = line as { id?: string; state?: { chatId?: string } };
    if (record.id === '__cutoff__') chatId = record.state?.chatId;
  }
  expect(chatId).toEqual(expect.any(String));
  return chatId!;
}

describe('createChatProxyHandler abort route (4.4, 7)', () => {
  it('4.4, 7: a browser-sent sessionSettings in the abort body is dropped: naming the owner does not let another viewer abort (403)', async () => {
    const chatId = await converse('ann@partner.example');
    const before = upstream.length;
    const forged = await post(
      'abort',
      { chatId, sessionSettings: { externalId: 'ann@partner.example' } },
      'bob@partner.example',
    );
    expect(forged.status).toBe(403);
    const sent = upstream.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`${emulator.aiUrl}/chat/abort`);
    expect(sent[0]!.authorization).toBe(`Api-Key ${emulator.apiKey}`);
    expect(JSON.parse(sent[0]!.body!)).toEqual({ chatId, sessionSettings: { externalId: 'bob@partner.example' } });
    // The owner, decided by the server, may.
    expect((await post('abort', { chatId }, 'ann@partner.example')).status).toBe(204);
  });

  it('4.4: an abort from nobody the host knows is 401 and nothing goes upstream; an abort without chatId is 400', async () => {
    const chatId = await converse('cid@partner.example');
    const before = upstream.length;
    const anonymous = await post('abort', { chatId, sessionSettings: { externalId: 'cid@partner.example' } }, null);
    expect(anonymous.status).toBe(401);
    expect((await post('abort', {}, 'cid@partner.example')).status).toBe(400);
    expect(upstream.length).toBe(before);
  });
});
