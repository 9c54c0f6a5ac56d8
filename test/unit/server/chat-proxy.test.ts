// @vitest-environment node
/**
 * createChatProxyHandler between a browser-side client and the emulator's Chat API, through real
 * sockets: the proxy is served by `node:http` with `toNodeHandler`, the browser is `fetch` or the
 * core chat client, and a TCP tap in front of the emulator shows what happens to the upstream
 * connection. A scripted upstream shows backpressure and key scrubbing.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceAuthError, createChatClient, readNdjson } from '../../../src/core';
import { STREAMING_IN_PROGRESS, createMessageId } from '../../../src/core/protocol/chat';
import { isRecord } from '../../../src/core/protocol/shared';
import { createChatProxyHandler, toNodeHandler, type ChatProxyOptions, type RouteHandler } from '../../../src/server';
import { useEmulator } from '../../helpers/emulator';
import { chatIdOf } from '../../helpers/streams';
import { recordingFetch, startScriptedServer, type SeenRequest } from './helpers';

/** A request whose input contains this makes the emulator's run hold after 3 lines (cutoff, user echo, one more). */
const HOLD = '[hold]';

const emulator = useEmulator({
  port: 0,
  chatPace: 'instant',
  chatFault: ({ endpoint, body }) =>
    endpoint === 'stream' && isRecord(body) && typeof body['input'] === 'string' && body['input'].includes(HOLD)
      ? 'hold-after=3'
      : undefined,
});

/** A TCP tap between the proxy and the emulator: it sees each upstream connection open and close. */
interface Tap {
  url: string;
  open: Set<Socket>;
  closes: number;
  server: TcpServer;
}
let tap: Tap;

/** The proxy under test, served over HTTP; `x-user` stands for the host's own authentication. */
interface Served {
  url: string;
  server: Server;
  upstream: SeenRequest[];
  signals: AbortSignal[];
  onError: ReturnType<typeof vi.fn>;
}
const servers: Server[] = [];

async function serve(handler: RouteHandler): Promise<{ url: string; server: Server }> {
  const node = toNodeHandler(handler);
  const server = createHttpServer((req, res) => void node(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function proxy(options: Partial<ChatProxyOptions> = {}): Promise<Served> {
  const signals: AbortSignal[] = [];
  const recorder = recordingFetch();
  const onError = vi.fn();
  const handler = createChatProxyHandler({
    aiUrl: `${tap.url}/api/v1/public/acme/agents/1`,
    apiKey: emulator.apiKey,
    fetch: (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return recorder.fetch(input, init);
    },
    resolveSessionSettings: (request) => {
      const user = request.headers.get('x-user');
      return user ? { externalId: user } : null;
    },
    onError,
    ...options,
  });
  const { url, server } = await serve(handler);
  return { url, server, upstream: recorder.seen, signals, onError };
}

beforeAll(async () => {
  const target = new URL(emulator.url);
  const open = new Set<Socket>();
  const server = createTcpServer((socket) => {
    open.add(socket);
    const upstream = connect(Number(target.port), target.hostname);
    socket.pipe(upstream).pipe(socket);
    const done = () => {
      if (!open.delete(socket)) return;
      tap.closes += 1;
      socket.destroy();
      upstream.destroy();
    };
    socket.on('close', done).on('error', done);
    upstream.on('close', done).on('error', done);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tap = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, open, closes: 0, server };
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  for (const socket of tap.open) socket.destroy();
  await new Promise<void>((resolve) => tap.server.close(() => resolve()));
});

function chatPost(
  url: string,
  body: unknown,
  user: string | null = 'ann@partner.example',
  init: RequestInit = {},
): Promise<Response> {
  return fetch(`${url}/api/chat/chat/stream-chat-state`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(user ? { 'x-user': user } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

function abortPost(url: string, chatId: string, user = 'ann@partner.example'): Promise<Response> {
  return fetch(`${url}/api/chat/chat/abort`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ chatId }),
  });
}

/** Reads NDJSON lines from a body one at a time. */
function lineReader(body: ReadableStream<Uint8Array>) {
  const iterator = readNdjson(body)[Symbol.asyncIterator]();
  return async (): Promise<Record<string, unknown> | undefined> => {
    const { done, value } = await iterator.next();
    return done ? undefined : (value as Record<string, unknown>);
  };
}

function ownerOf(chatId: string): string | undefined {
  const owner = emulator.context.state.threads.get(chatId)?.owner;
  return owner?.kind === 'external' ? owner.userKey : undefined;
}

describe('createChatProxyHandler (2.8, 4.4, behaviour 1)', () => {
  it('the core chat client, pointed at the proxy route, streams a whole answer as the server-decided user', async () => {
    const served = await proxy();
    const client = createChatClient({
      url: `${served.url}/api/chat`,
      // The browser's own credentials (a cookie in real life) ride along; the proxy decides who that is.
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), 'x-user': 'ann@partner.example' },
        }),
    });
    const lines = [];
    for await (const line of client.stream({ input: 'Show me revenue by region' })) lines.push(line);
    const cutoff = lines.find((line) => 'id' in line && line.id === '__cutoff__') as unknown as Record<string, unknown>;
    expect(ownerOf(chatIdOf([cutoff]))).toBe('acme/ann@partner.example');
    expect(lines.at(-1)).toMatchObject({ id: '__usage__' });
    const upstreamBody = JSON.parse(served.upstream[0]!.body!) as Record<string, unknown>;
    expect(upstreamBody['sessionSettings']).toEqual({ externalId: 'ann@partner.example' });
    expect(served.upstream[0]!.authorization).toBe(`Api-Key ${emulator.apiKey}`);
  });

  it('2.8: forwards only input, chatId, messageId and the branch fields; a browser-sent sessionSettings is dropped', async () => {
    const served = await proxy();
    const messageId = createMessageId();
    const response = await chatPost(served.url, {
      input: 'Orders by status',
      messageId,
      activeBranchName: 'main',
      isDefaultBranch: true,
      sessionSettings: { externalId: 'mallory@evil.example', groups: ['executives'] },
      agentId: '2',
      extra: 'dropped',
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    const cutoff = JSON.parse(text.split('\n')[0]!) as Record<string, unknown>;
    const chatId = chatIdOf([cutoff]);
    expect(ownerOf(chatId)).toBe('acme/ann@partner.example');
    expect([...emulator.context.state.externalUsers.keys()]).not.toContain('acme/mallory@evil.example');
    expect(JSON.parse(served.upstream[0]!.body!)).toEqual({
      input: 'Orders by status',
      messageId,
      activeBranchName: 'main',
      isDefaultBranch: true,
      sessionSettings: { externalId: 'ann@partner.example' },
    });
  });

  it('4.4: streams lines to the browser as they arrive, before the upstream stream has finished; abort passes 204 through', async () => {
    const served = await proxy();
    const response = await chatPost(served.url, { input: `${HOLD} revenue`, messageId: createMessageId() });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/ndjson|json|text\/plain/);
    const next = lineReader(response.body!);
    const first = await next();
    const second = await next();
    const third = await next();
    // The emulator's run is holding after these three lines: the upstream answer is not over, yet
    // the browser has them. A buffering proxy would wait for the end and hang here.
    expect(first).toMatchObject({ id: '__cutoff__' });
    expect(second).toMatchObject({ role: 'user', content: `${HOLD} revenue` });
    expect(third).toMatchObject({ role: 'assistant' });
    const chatId = chatIdOf([first]);

    const stopped = await abortPost(served.url, chatId);
    expect(stopped.status).toBe(204);
    expect(await stopped.text()).toBe('');
    const rest = [];
    for (let line = await next(); line; line = await next()) rest.push(line);
    expect(rest.map((line) => line['id'])).toEqual(expect.arrayContaining(['__aborted__', '__usage__']));
    expect(rest.at(-1)).toMatchObject({ id: '__usage__' });
  });

  it('3, 7: upstream HTTP errors pass through with status and body (409 streaming in progress, 404 unknown chat)', async () => {
    const served = await proxy();
    const held = await chatPost(served.url, { input: `${HOLD} first`, messageId: createMessageId() });
    const next = lineReader(held.body!);
    const chatId = chatIdOf([await next()]);
    const busy = await chatPost(served.url, { input: 'second', chatId, messageId: createMessageId() });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toEqual({ error: STREAMING_IN_PROGRESS });
    expect(busy.headers.get('cache-control')).toBe('no-store');
    expect((await abortPost(served.url, chatId)).status).toBe(204);
    while (await next());

    const unknown = await chatPost(served.url, { input: 'hi', chatId: 'no-such-chat' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toHaveProperty('error');
  });

  it('4.4, 7: abort passes 403 (another user) and 404 (unknown chat) through', async () => {
    const served = await proxy();
    const held = await chatPost(served.url, { input: `${HOLD} mine`, messageId: createMessageId() });
    const next = lineReader(held.body!);
    const chatId = chatIdOf([await next()]);
    const foreign = await abortPost(served.url, chatId, 'bob@partner.example');
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toHaveProperty('error');
    expect((await abortPost(served.url, 'no-such-chat')).status).toBe(404);
    expect((await abortPost(served.url, chatId)).status).toBe(204);
    while (await next());
  });

  it('7, behaviour 1: a refused key comes back as the JSON-RPC error in a 200, which the chat client reports as ServiceAuthError; the key never shows', async () => {
    const served = await proxy({ apiKey: 'svc_admin_acme_revoked_9999' });
    const response = await chatPost(served.url, { input: 'hi' });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    expect(text).not.toContain('svc_admin_acme_revoked_9999');
    const client = createChatClient({
      url: `${served.url}/api/chat`,
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-user': 'ann' } }),
    });
    const failure = await (async () => {
      try {
        for await (const _line of client.stream({ input: 'hi' })) void _line;
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(ServiceAuthError.isInstance(failure)).toBe(true);
  });

  it('passes a service error that echoes the key through with the key scrubbed', async () => {
    const echo = await startScriptedServer((request, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `rejected ${request.headers.authorization}` }));
    });
    try {
      const handler = createChatProxyHandler({
        aiUrl: `${echo.url}/api/v1/public/acme/agents/1`,
        apiKey: 'svc_secret_echoed',
        resolveSessionSettings: () => ({ externalId: 'ann' }),
      });
      const response = await handler.stream(
        new Request('http://host/any', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"input":"hi"}',
        }),
      );
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'rejected Api-Key [redacted]' });
    } finally {
      await echo.close();
    }
  });

  it('aborts the upstream request when the browser disconnects (node adapter): the upstream connection closes', async () => {
    const served = await proxy();
    const browser = new AbortController();
    const response = await chatPost(served.url, { input: `${HOLD} leaving`, messageId: createMessageId() }, null, {
      signal: browser.signal,
      headers: { 'content-type': 'application/json', 'x-user': 'ann@partner.example' },
    });
    const next = lineReader(response.body!);
    const chatId = chatIdOf([await next()]);
    expect(served.signals).toHaveLength(1);
    expect(served.signals[0]!.aborted).toBe(false);
    const closesBefore = tap.closes;
    expect(tap.open.size).toBeGreaterThan(0);

    browser.abort();
    await vi.waitFor(() => expect(served.signals[0]!.aborted).toBe(true));
    // The proxy's connection to the service is gone, not left streaming to nobody.
    await vi.waitFor(() => expect(tap.closes).toBeGreaterThan(closesBefore));
    // The run itself goes on upstream (the service's choice); the owner can still stop it.
    expect((await abortPost(served.url, chatId)).status).toBe(204);
  });

  it('aborts the upstream request when the Fetch request signal aborts (route handler use)', async () => {
    const signals: AbortSignal[] = [];
    const handler = createChatProxyHandler({
      aiUrl: `${tap.url}/api/v1/public/acme/agents/1`,
      apiKey: emulator.apiKey,
      fetch: (input, init) => {
        if (init?.signal) signals.push(init.signal);
        return fetch(input, init);
      },
      resolveSessionSettings: () => ({ externalId: 'ann@partner.example' }),
    });
    const browser = new AbortController();
    const response = await handler(
      new Request('http://partner.example/api/chat/chat/stream-chat-state', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: `${HOLD} route`, messageId: createMessageId() }),
        signal: browser.signal,
      }),
    );
    const next = lineReader(response.body!);
    const chatId = chatIdOf([await next()]);
    const closesBefore = tap.closes;
    browser.abort();
    await vi.waitFor(() => expect(signals[0]!.aborted).toBe(true));
    await vi.waitFor(() => expect(tap.closes).toBeGreaterThan(closesBefore));
    await handler.abort(
      new Request('http://partner.example/x', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chatId }),
      }),
    );
  });

  it('respects backpressure: the upstream is read only as fast as the browser reads', async () => {
    const chunk = `${JSON.stringify({ id: 'm', role: 'assistant', content: 'x'.repeat(64 * 1024 - 50), isDelta: true })}\n`;
    let written = 0;
    let blocked = false;
    let upstreamClosed = false;
    const endless = await startScriptedServer(async (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.on('close', () => (upstreamClosed = true));
      while (!res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) {
          blocked = true;
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off('drain', done);
              res.off('close', done);
              resolve();
            };
            res.on('drain', done);
            res.on('close', done);
          });
          blocked = false;
        }
      }
    });
    try {
      const handler = createChatProxyHandler({
        aiUrl: `${endless.url}/api/v1/public/acme/agents/1`,
        apiKey: 'k',
        resolveSessionSettings: () => ({ externalId: 'ann' }),
      });
      const { url } = await serve(handler);
      const browser = new AbortController();
      const response = await chatPost(url, { input: 'flood' }, 'ann', { signal: browser.signal });
      const reader = response.body!.getReader();
      await reader.read();
      // The browser stops reading. An endless upstream must then stall on its socket: the proxy
      // holds at most a chunk, and the sockets' buffers fill.
      await vi.waitFor(() => expect(blocked).toBe(true), { timeout: 10_000 });
      const stalledAt = written;
      expect(stalledAt).toBeLessThan(64 * 1024 * 1024);
      await reader.read();
      browser.abort();
      await vi.waitFor(() => expect(upstreamClosed).toBe(true));
    } finally {
      await endless.close();
    }
  });

  it('a service connection that drops right after its last lines: the browser still gets every line, then a broken stream', async () => {
    // The lines and the drop reach the proxy together, while the browser is not reading: Node's
    // fetch throws away what it queued when the body fails, so the proxy must already hold them.
    const lines = [
      `${JSON.stringify({ id: '__cutoff__', role: 'assistant', state: { isStreaming: true, chatId: 'c1' }, sort: 0 })}\n`,
      `${JSON.stringify({ id: 'm', role: 'assistant', content: 'Hel', isDelta: true, sort: 1 })}\n`,
    ];
    const dropping = await startScriptedServer((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const line of lines) res.write(line);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    try {
      const handler = createChatProxyHandler({
        aiUrl: `${dropping.url}/api/v1/public/acme/agents/1`,
        apiKey: 'k',
        resolveSessionSettings: () => ({ externalId: 'ann' }),
      });
      // The route handler itself (no HTTP to the test): Node's fetch here would drop lines too.
      const response = await handler(
        new Request('http://partner.example/api/chat/chat/stream-chat-state', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ input: 'hello' }),
        }),
      );
      expect(response.status).toBe(200);
      // The browser is busy for a while: the drop happens before it reads anything.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const reader = response.body!.getReader();
      let received = '';
      const outcome = await (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return 'clean end';
            received += new TextDecoder().decode(value);
          }
        } catch {
          return 'broken';
        }
      })();
      expect(received).toBe(lines.join(''));
      expect(outcome).toBe('broken');
    } finally {
      await dropping.close();
    }
  });

  describe("the proxy's own answers", () => {
    it('401 when the resolver finds nobody; nothing goes upstream', async () => {
      const served = await proxy();
      const response = await chatPost(served.url, { input: 'hi' }, null);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'unauthorized' });
      expect(served.upstream).toHaveLength(0);
    });

    it('a Response from the resolver is sent as it is', async () => {
      const served = await proxy({ resolveSessionSettings: () => new Response('no chat for you', { status: 403 }) });
      const response = await chatPost(served.url, { input: 'hi' });
      expect(response.status).toBe(403);
      expect(await response.text()).toBe('no chat for you');
    });

    it('2.8: 400 with problems for an invalid browser field, nothing upstream', async () => {
      const served = await proxy();
      const response = await chatPost(served.url, { input: 5, messageId: '123-message' });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { problems: string[] };
      expect(body.problems).toEqual([expect.stringMatching(/^input: /), expect.stringMatching(/^messageId: /)]);
      expect((await chatPost(served.url, '{not json')).status).toBe(400);
      expect((await chatPost(served.url, '[1]')).status).toBe(400);
      const abort = await fetch(`${served.url}/api/chat/chat/abort`, {
        method: 'POST',
        headers: { 'x-user': 'ann', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(abort.status).toBe(400);
      expect(served.upstream).toHaveLength(0);
    });

    it('2.8: 500 when the resolver returns invalid sessionSettings (problems only with details on), or throws', async () => {
      const shown = await proxy({
        resolveSessionSettings: () => ({ externalId: 'Ann Smith' }),
        exposeErrorDetails: true,
      });
      const response = await chatPost(shown.url, { input: 'hi' });
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({
        code: 'invalid_session_settings',
        problems: [expect.stringMatching(/^sessionSettings\.externalId: .*lowercase with no spaces/)],
      });
      expect(shown.onError).toHaveBeenCalledOnce();
      const hidden = await proxy({
        resolveSessionSettings: () => ({ externalId: 'Ann Smith' }),
        exposeErrorDetails: false,
      });
      expect(await (await chatPost(hidden.url, { input: 'hi' })).json()).not.toHaveProperty('problems');
      const throwing = await proxy({
        resolveSessionSettings: () => {
          throw new Error('auth backend down');
        },
      });
      const failed = await chatPost(throwing.url, { input: 'hi' });
      expect(failed.status).toBe(500);
      expect(await failed.text()).not.toContain('auth backend down');
      expect(throwing.upstream).toHaveLength(0);
    });

    it('405 for other methods, 404 for other paths, 413 for a body over maxBodyBytes', async () => {
      const served = await proxy({ maxBodyBytes: 1000 });
      const get = await fetch(`${served.url}/api/chat/chat/stream-chat-state`);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      expect((await fetch(`${served.url}/api/chat/chat/other`, { method: 'POST', body: '{}' })).status).toBe(404);
      expect((await chatPost(served.url, { input: 'x'.repeat(2000) })).status).toBe(413);
    });

    it('502 when the service cannot be reached', async () => {
      const served = await proxy({ aiUrl: 'http://127.0.0.1:9/api/v1/public/acme/agents/1' });
      const response = await chatPost(served.url, { input: 'hi' });
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ code: 'bad_gateway' });
      expect(served.onError).toHaveBeenCalledOnce();
    });

    it('5 rule 1: refuses an aiUrl that is not https (except loopback) and options without a resolver', () => {
      expect(() =>
        createChatProxyHandler({
          aiUrl: 'http://ai.example.com/api/v1/public/acme/agents/1',
          apiKey: 'k',
          resolveSessionSettings: () => null,
        }),
      ).toThrow(/aiUrl/);
      expect(() => createChatProxyHandler({ aiUrl: 'https://ai.example.com/x', apiKey: 'k' } as never)).toThrow(
        /resolveSessionSettings/,
      );
    });
  });
});
