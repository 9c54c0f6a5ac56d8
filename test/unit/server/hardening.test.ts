// @vitest-environment node
/**
 * The holes a hostile probe found in the server helpers, each closed and shown closed
 * through real sockets (scripted `node:http` upstreams that stall, echo the key, serve HTML or
 * never end, and the emulator where the real service's answers matter).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceStreamError, createChatClient, readNdjson } from '../../../src/core';
import {
  ServiceConfigError,
  ServiceError,
  ServiceHttpError,
  ServiceValidationError,
  createChatProxyHandler,
  createServiceClient,
  createSessionHandler,
  refuseSession,
  toNodeHandler,
  type ChatProxyOptions,
  type RouteHandler,
  type SessionHandlerOptions,
} from '../../../src/server';
import { createKeyScrubber } from '../../../src/server/transport';
import { useEmulator } from '../../helpers/emulator';
import { caught, recordingFetch, startScriptedServer, type ScriptedServer } from './helpers';

const emulator = useEmulator({ port: 0, chatPace: 'instant' });
const closers: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

async function scripted(handle: Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> {
  const server = await startScriptedServer(handle);
  closers.push(() => server.close());
  return server;
}

/** An upstream that accepts every request and never answers. */
function silent(): Promise<ScriptedServer> {
  return scripted(() => {});
}

/** Resolves when `res` is closed (the other side went away or it ended). */
function closed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => (res.closed ? resolve() : res.once('close', () => resolve())));
}

const AGENT_PATH = '/api/v1/public/acme/agents/1';

function proxyOf(aiUrl: string, options: Partial<ChatProxyOptions> = {}) {
  const onError = vi.fn();
  const handler = createChatProxyHandler({
    aiUrl: aiUrl.endsWith('/1') ? aiUrl : `${aiUrl}${AGENT_PATH}`,
    apiKey: 'svc_secret_key_0001',
    resolveSessionSettings: () => ({ externalId: 'ann@partner.example' }),
    onError,
    ...options,
  });
  return { handler, onError };
}

function chatRequest(
  body: unknown = { input: 'hi' },
  headers: Record<string, string> = {},
  path = '/api/service/chat/stream-chat-state',
): Request {
  return new Request(`https://partner.example${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function sessionHandlerOf(options: Partial<SessionHandlerOptions> = {}) {
  const recorder = recordingFetch();
  const resolve = vi.fn(() => ({ externalId: 'ann@partner.example' }));
  const handler = createSessionHandler({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    fetch: recorder.fetch,
    deploymentId: 1,
    onError: () => {},
    resolve,
    ...options,
  } as SessionHandlerOptions);
  return { handler, resolve, seen: recorder.seen };
}

function sessionRequest(
  headers: Record<string, string> = { 'content-type': 'application/json' },
  body = '{"surface":"dashboard"}',
): Request {
  return new Request('https://partner.example/api/embed-session', { method: 'POST', headers, body });
}

async function textOf(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

describe('upstream timeouts (timeoutMs, default 30 s; chat stream idle limit, default 120 s)', () => {
  it('createServiceClient: a service that never answers is a ServiceError upstream_timeout, not a hang; an idempotent call is not retried', async () => {
    const upstream = await silent();
    // Long enough for the request to reach the upstream on a busy machine: the count below matters.
    const client = createServiceClient({
      baseUrl: upstream.url,
      apiKey: 'k',
      timeoutMs: 1000,
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await caught(() => client.generateSession({ deploymentId: 1, externalId: 'ann' }));
    expect(ServiceError.isInstance(error) && error.code === 'upstream_timeout').toBe(true);
    expect((error as Error).message).toMatch(/1000 ms/);
    const listed = await caught(() => client.listDeployments().toArray());
    expect(ServiceError.isInstance(listed) && listed.code === 'upstream_timeout').toBe(true);
    expect(upstream.received.map((request) => request.method)).toEqual(['POST', 'GET']);
  });

  it('createServiceClient: the limit also covers a body that starts and never ends', async () => {
    const upstream = await scripted((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items": [');
    });
    const client = createServiceClient({ baseUrl: upstream.url, apiKey: 'k', timeoutMs: 200, retry: false });
    const error = await caught(() => client.listDeployments().toArray());
    expect(ServiceError.isInstance(error) && error.code === 'upstream_timeout').toBe(true);
  });

  it('createSessionHandler: 504 { code: upstream_timeout }', async () => {
    const upstream = await silent();
    const { handler } = sessionHandlerOf({ baseUrl: upstream.url, fetch: undefined, timeoutMs: 200 });
    const response = await handler(sessionRequest());
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ code: 'upstream_timeout' });
  });

  it('createChatProxyHandler: 504 { code: upstream_timeout } for both routes; the upstream request is closed', async () => {
    const ends: Promise<void>[] = [];
    const upstream = await scripted((_request, res) => void ends.push(closed(res)));
    const { handler } = proxyOf(upstream.url, { timeoutMs: 200 });
    const stream = await handler(chatRequest());
    expect(stream.status).toBe(504);
    expect(await stream.json()).toMatchObject({ code: 'upstream_timeout' });
    const abort = await handler(chatRequest({ chatId: 'c1' }, {}, '/api/service/chat/abort'));
    expect(abort.status).toBe(504);
    await Promise.all(ends);
  });

  it('createChatProxyHandler: a stream that stops sending ends with an {"error"} line after streamIdleTimeoutMs, not a hang', async () => {
    let upstreamClosed: Promise<void> | undefined;
    const upstream = await scripted((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"id":"__cutoff__","role":"assistant","state":{"isStreaming":true,"chatId":"c1"},"sort":0}\n');
      // Half a line, then silence: the error line must still start on a line of its own.
      res.write('{"id":"m1","role":"assistant","content":"Rev');
      upstreamClosed = closed(res);
    });
    const { handler } = proxyOf(upstream.url, { streamIdleTimeoutMs: 300 });
    const response = await handler(chatRequest());
    expect(response.status).toBe(200);
    const malformed: string[] = [];
    const lines: unknown[] = [];
    for await (const line of readNdjson(response.body!, { onMalformedLine: (text) => malformed.push(text) }))
      lines.push(line);
    expect(lines).toEqual([
      expect.objectContaining({ id: '__cutoff__' }),
      { error: expect.stringMatching(/sent nothing for 300 ms/), code: 'upstream_timeout' },
    ]);
    expect(malformed).toEqual(['{"id":"m1","role":"assistant","content":"Rev']);
    await upstreamClosed;
  });

  it('the core chat client sees the idle limit as a ServiceStreamError', async () => {
    const upstream = await scripted((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"id":"__cutoff__","role":"assistant","state":{"isStreaming":true,"chatId":"c1"},"sort":0}\n');
    });
    const { handler } = proxyOf(upstream.url, { streamIdleTimeoutMs: 200 });
    const client = createChatClient({
      url: 'https://partner.example/api/service',
      fetch: (input, init) => handler(new Request(input, init)),
    });
    const error = await caught(async () => {
      for await (const line of client.stream({ input: 'hi' })) void line;
    });
    expect(ServiceStreamError.isInstance(error)).toBe(true);
  });

  it('refuses timeouts that cannot work', () => {
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => createServiceClient({ baseUrl: emulator.url, apiKey: 'k', timeoutMs: bad })).toThrow(
        ServiceConfigError,
      );
      expect(() => proxyOf(emulator.url, { timeoutMs: bad })).toThrow(/timeoutMs/);
      expect(() => proxyOf(emulator.url, { streamIdleTimeoutMs: bad })).toThrow(/streamIdleTimeoutMs/);
      expect(() => sessionHandlerOf({ timeoutMs: bad })).toThrow(/timeoutMs/);
    }
  });
});

describe('no form posts, no cross-site requests (415, 403, allowedOrigins)', () => {
  const FORM_TYPES = [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  ];

  it('session route: a body that is not declared JSON is 415, resolve is not called, nothing is sent', async () => {
    const { handler, resolve, seen } = sessionHandlerOf();
    for (const type of FORM_TYPES) {
      const response = await handler(sessionRequest({ 'content-type': type }));
      expect(response.status, type).toBe(415);
      expect(await response.json()).toMatchObject({ code: 'unsupported_media_type' });
    }
    expect((await handler(sessionRequest({}, ''))).status).toBe(415);
    expect(resolve).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
    expect((await handler(sessionRequest({ 'content-type': 'Application/JSON; charset=utf-8' }))).status).toBe(200);
  });

  it('chat proxy: 415 for both routes, nothing upstream', async () => {
    const upstream = await silent();
    const { handler } = proxyOf(upstream.url);
    for (const type of FORM_TYPES) {
      expect((await handler(chatRequest({ input: 'hi' }, { 'content-type': type }))).status).toBe(415);
      expect(
        (await handler(chatRequest({ chatId: 'c1' }, { 'content-type': type }, '/api/service/chat/abort'))).status,
      ).toBe(415);
    }
    expect(upstream.received).toHaveLength(0);
  });

  it('session route: cross-site requests are 403 (Sec-Fetch-Site cross-site, a foreign or null Origin); same-origin and allowedOrigins pass', async () => {
    const { handler, resolve } = sessionHandlerOf();
    const json = { 'content-type': 'application/json' };
    const refused: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'https://partner.example.evil.example', 'sec-fetch-site': 'cross-site' },
      // A sibling subdomain is same-site but another origin.
      { origin: 'https://blog.partner.example', 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refused) {
      const response = await handler(sessionRequest({ ...json, ...headers }));
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'cross_site_request' });
    }
    expect(resolve).not.toHaveBeenCalled();
    const passed: Record<string, string>[] = [
      {},
      { origin: 'https://partner.example', 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
    ];
    for (const headers of passed) {
      expect((await handler(sessionRequest({ ...json, ...headers }))).status, JSON.stringify(headers)).toBe(200);
    }
    const allowed = sessionHandlerOf({ allowedOrigins: ['https://admin.partner-tools.example'] }).handler;
    expect(
      (
        await allowed(
          sessionRequest({ ...json, origin: 'https://admin.partner-tools.example', 'sec-fetch-site': 'cross-site' }),
        )
      ).status,
    ).toBe(200);
    expect(
      (await allowed(sessionRequest({ ...json, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })))
        .status,
    ).toBe(403);
  });

  it('chat proxy: cross-site requests are 403 on both routes, nothing upstream; allowedOrigins pass', async () => {
    const upstream = await silent();
    const { handler } = proxyOf(upstream.url);
    expect((await handler(chatRequest({ input: 'hi' }, { origin: 'https://evil.example' }))).status).toBe(403);
    expect(
      (await handler(chatRequest({ chatId: 'c1' }, { 'sec-fetch-site': 'cross-site' }, '/api/service/chat/abort')))
        .status,
    ).toBe(403);
    expect(upstream.received).toHaveLength(0);
    const allowed = proxyOf(emulator.aiUrl, {
      allowedOrigins: ['https://admin.partner-tools.example'],
      apiKey: emulator.apiKey,
    }).handler;
    const response = await allowed(
      chatRequest({ input: 'hi' }, { origin: 'https://admin.partner-tools.example', 'sec-fetch-site': 'cross-site' }),
    );
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('refuses allowedOrigins that are not origins', () => {
    for (const bad of [['https://a.example/path'], ['a.example'], 'https://a.example', [''], ['*']]) {
      expect(() => proxyOf(emulator.url, { allowedOrigins: bad as never })).toThrow(/allowedOrigins/);
      expect(() => sessionHandlerOf({ allowedOrigins: bad as never })).toThrow(/allowedOrigins/);
    }
  });
});

describe('only JSON and NDJSON from the upstream; nosniff and no-store on every answer', () => {
  it('an upstream HTML error page is wrapped into the JSON error body, never served as HTML', async () => {
    const upstream = await scripted((_request, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><script>alert(document.cookie)</script>Bad gateway</html>');
    });
    const response = await proxyOf(upstream.url).handler(chatRequest());
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text).not.toContain('<script>');
    expect(JSON.parse(text)).toMatchObject({ error: expect.any(String), code: 'server_error' });
  });

  it('a short plain-text error keeps its words in `error`; JSON errors pass as JSON', async () => {
    const upstream = await scripted((request, res) => {
      if (request.body.includes('plain')) {
        res.writeHead(409, { 'content-type': 'text/plain' });
        res.end('Streaming for thread is in progress');
      } else {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        res.end('{"error":"Chat not found"}');
      }
    });
    const { handler } = proxyOf(upstream.url);
    const plain = await handler(chatRequest({ input: 'plain' }));
    expect(plain.status).toBe(409);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await plain.json()).toEqual({ error: 'Streaming for thread is in progress', code: 'conflict' });
    const json = await handler(chatRequest({ input: 'json' }));
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toEqual({ error: 'Chat not found' });
  });

  it('a 200 body that says it is HTML is served as NDJSON (with nosniff the browser never renders it)', async () => {
    const upstream = await scripted((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<script>alert(1)</script>\n');
    });
    const response = await proxyOf(upstream.url).handler(chatRequest());
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    await response.body?.cancel();
  });

  it('every answer of both routes carries X-Content-Type-Options: nosniff and Cache-Control: no-store', async () => {
    const answers: [string, Response][] = [];
    const { handler: session } = sessionHandlerOf();
    answers.push(['session 200', await session(sessionRequest())]);
    answers.push(['session 405', await session(new Request('https://partner.example/api/embed-session'))]);
    answers.push(['session 415', await session(sessionRequest({ 'content-type': 'text/plain' }))]);
    answers.push([
      'session 403',
      await session(sessionRequest({ 'content-type': 'application/json', origin: 'https://evil.example' })),
    ]);
    answers.push(['session 400', await session(sessionRequest({ 'content-type': 'application/json' }, '{'))]);
    answers.push(['session 401', await sessionHandlerOf({ resolve: () => null }).handler(sessionRequest())]);
    answers.push([
      'session refuseSession',
      await sessionHandlerOf({ resolve: () => refuseSession(403, 'no') }).handler(sessionRequest()),
    ]);
    const cached = new Response('mine', { status: 403, headers: { 'cache-control': 'public, max-age=600' } });
    answers.push(['session own Response', await sessionHandlerOf({ resolve: () => cached }).handler(sessionRequest())]);

    const { handler: chat } = proxyOf(emulator.aiUrl, { apiKey: emulator.apiKey });
    const stream = await chat(chatRequest({ input: 'hi' }));
    answers.push(['chat 200 stream', stream]);
    const chatId = ((await readNdjson(stream.body!).next()).value as { state: { chatId: string } }).state.chatId;
    answers.push(['chat 204 abort', await chat(chatRequest({ chatId }, {}, '/api/service/chat/abort'))]);
    answers.push(['chat 404 passed through', await chat(chatRequest({ input: 'x', chatId: 'no-such-chat' }))]);
    answers.push(['chat 404 path', await chat(chatRequest({}, {}, '/api/service/chat/other'))]);
    answers.push([
      'chat own Response',
      await proxyOf(emulator.aiUrl, { resolveSessionSettings: () => cached.clone() }).handler(chatRequest()),
    ]);
    for (const [name, response] of answers) {
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(response.headers.get('cache-control'), name).toBe('no-store');
    }
  });
});

describe('the API key never reaches the browser, 200 answers included', () => {
  const KEY = 'svc_secret_key_0001';

  it('a JSON-RPC error in a 200 that echoes the key is scrubbed', async () => {
    const upstream = await scripted((request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32001, message: `Invalid key ${request.headers.authorization}` },
          id: null,
        }),
      );
    });
    const text = await textOf(await proxyOf(upstream.url).handler(chatRequest()));
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toMatchObject({ error: { message: 'Invalid key Api-Key [redacted]' } });
  });

  it('an {"error"} line of a stream that echoes the key is scrubbed, also when the key is split across chunks; lines still stream as they come', async () => {
    let release: () => void = () => {};
    const upstream = await scripted(async (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('{"id":"__cutoff__","role":"assistant","state":{"isStreaming":true,"chatId":"c1"},"sort":0}\n');
      await new Promise<void>((resolve) => (release = resolve));
      res.write(`{"error":"bad key ${KEY.slice(0, 7)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      res.end(`${KEY.slice(7)} and again ${KEY}"}\n`);
    });
    const response = await proxyOf(upstream.url).handler(chatRequest());
    const reader = readNdjson(response.body!)[Symbol.asyncIterator]();
    // The first line arrives while the upstream is still waiting: nothing is buffered whole.
    expect((await reader.next()).value).toMatchObject({ id: '__cutoff__' });
    release();
    expect((await reader.next()).value).toEqual({ error: 'bad key [redacted] and again [redacted]' });
    expect((await reader.next()).done).toBe(true);
  });

  it('the scrubber passes chunks without the key through as the same objects, and finds it across any cut', () => {
    const encoder = new TextEncoder();
    const scrubber = createKeyScrubber('svc_key');
    const plain = encoder.encode('{"content":"some svc text, sv"}\n');
    expect(scrubber.push(plain)).toBe(plain);
    expect(scrubber.end()).toHaveLength(0);
    const text = 'a svc_key b svc_svc_key c svc_ke';
    for (let cut1 = 0; cut1 <= text.length; cut1++) {
      for (let cut2 = cut1; cut2 <= text.length; cut2++) {
        const scrub = createKeyScrubber('svc_key');
        const parts = [text.slice(0, cut1), text.slice(cut1, cut2), text.slice(cut2)].map((part) =>
          scrub.push(encoder.encode(part)),
        );
        parts.push(scrub.end());
        expect(parts.map((part) => new TextDecoder().decode(part)).join('')).toBe(
          'a [redacted] b svc_[redacted] c svc_ke',
        );
      }
    }
  });
});

describe('every path segment from a caller is validated and percent-encoded', () => {
  it('`.`, `..`, `/`, empty and control characters are a ServiceValidationError, nothing sent', async () => {
    const recorder = recordingFetch();
    const client = createServiceClient({
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      fetch: recorder.fetch,
      retry: false,
    });
    const calls: [string, () => Promise<unknown>][] = [
      ["listEmbedTenantUsers('..')", () => client.listEmbedTenantUsers('..').toArray()],
      ["deleteEmbedTenantGroup('..', 1)", () => client.deleteEmbedTenantGroup('..', 1)],
      ["upsertWorkbookBySlug(1, '..')", () => client.upsertWorkbookBySlug(1, '..')],
      ["upsertWorkbookBySlug(1, ' . ')", () => client.upsertWorkbookBySlug(1, ' . ')],
      ["deleteEmbedTenant('.')", () => client.deleteEmbedTenant('.')],
      ["getEmbedTenantGroup('a/b', 1)", () => client.getEmbedTenantGroup('a/b', 1)],
      ["listEmbedTenantGroups('globex\\u0000')", () => client.listEmbedTenantGroups('globex\u0000').toArray()],
      ["createEmbedTenantGroup('x\\ny')", () => client.createEmbedTenantGroup('x\ny', { name: 'g' })],
      ["setDashboardEmbedding('..')", () => client.setDashboardEmbedding('..', true)],
      ["setDashboardEmbedding('a\\\\b')", () => client.setDashboardEmbedding('a\\b', true)],
      ["deleteEmbedTenant('')", () => client.deleteEmbedTenant('')],
    ];
    for (const [name, call] of calls) {
      const error = await caught(call);
      expect(ServiceValidationError.isInstance(error), name).toBe(true);
    }
    expect(recorder.seen).toEqual([]);
  });

  it('other characters are percent-encoded into their own segment', async () => {
    const recorder = recordingFetch();
    const client = createServiceClient({
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      fetch: recorder.fetch,
      retry: false,
    });
    await caught(() => client.listEmbedTenantUsers('a b?c#d%2e..').toArray());
    await caught(() => client.setDashboardEmbedding('x y', true));
    expect(recorder.seen.map((request) => new URL(request.url).pathname)).toEqual([
      '/api/v1/embed-tenants/a%20b%3Fc%23d%252e../users',
      '/api/v1/embed/dashboard/x%20y',
    ]);
  });
});

describe('upstream error bodies are read up to a cap, then cancelled', () => {
  /** An upstream that answers `status` with an endless body, counting what it wrote. */
  async function endlessError(status: number, type = 'text/plain') {
    const state = { written: 0, closed: undefined as Promise<void> | undefined };
    const upstream = await scripted(async (_request, res) => {
      res.writeHead(status, { 'content-type': type });
      state.closed = closed(res);
      const chunk = 'x'.repeat(64 * 1024);
      while (!res.destroyed) {
        state.written += chunk.length;
        if (!res.write(chunk)) {
          // Both listeners go once either fires: one per wait would pile up on the response.
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off('drain', done).off('close', done);
              resolve();
            };
            res.on('drain', done).on('close', done);
          });
        }
      }
    });
    return { upstream, state };
  }

  it('createServiceClient: an endless error body is cut, the connection closed, the error thrown', async () => {
    const { upstream, state } = await endlessError(500);
    const client = createServiceClient({ baseUrl: upstream.url, apiKey: 'k', retry: false });
    const error = await caught(() => client.createEmbedTenantGroup('globex-corp', { name: 'g' }));
    expect(ServiceHttpError.isInstance(error) && error.status === 500).toBe(true);
    expect(String((error as ServiceHttpError).body).length).toBeLessThanOrEqual(64 * 1024);
    await state.closed;
    expect(state.written).toBeLessThan(32 * 1024 * 1024);
  });

  it('createChatProxyHandler: an endless error body is cut, the connection closed, the status passed', async () => {
    const { upstream, state } = await endlessError(503, 'application/json');
    const response = await proxyOf(upstream.url).handler(chatRequest());
    expect(response.status).toBe(503);
    expect((await response.text()).length).toBeLessThanOrEqual(64 * 1024 + 200);
    await state.closed;
    expect(state.written).toBeLessThan(32 * 1024 * 1024);
  });
});

describe('toNodeHandler: an invalid Host header is 400', () => {
  let server: Server;
  let port: number;
  const onError = vi.fn();
  const seenUrls: string[] = [];

  beforeAll(async () => {
    const handler: RouteHandler = async (request) => {
      seenUrls.push(request.url);
      return new Response('ok');
    };
    const node = toNodeHandler(handler, { onError });
    server = createServer((req: IncomingMessage, res: ServerResponse) => void node(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    closers.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  });

  /** Sends a raw HTTP/1.1 request (Node's client would refuse the bad headers) and returns the status line and body. */
  function raw(host: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), text }));
      socket.on('error', reject);
      socket.end(`POST /api/embed-session HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    });
  }

  it('a Host that is no host (spaces, a path, user info, a bad port) is 400, the handler and onError untouched', async () => {
    for (const host of [
      'bad host',
      'evil.example/other',
      'user@evil.example',
      'a.example:99999',
      'a.example:x',
      '[::1',
    ]) {
      const { status, text } = await raw(host);
      expect(status, host).toBe(400);
      expect(text.toLowerCase()).toContain('x-content-type-options: nosniff');
    }
    expect(seenUrls).toEqual([]);
    expect(onError).not.toHaveBeenCalled();
  });

  it('good hosts still reach the handler', async () => {
    for (const host of ['partner.example', 'partner.example:8443', '127.0.0.1:3000', '[::1]:8080']) {
      expect((await raw(host)).status, host).toBe(200);
    }
    expect(seenUrls.map((url) => new URL(url).host)).toEqual([
      'partner.example',
      'partner.example:8443',
      '127.0.0.1:3000',
      '[::1]:8080',
    ]);
  });
});
