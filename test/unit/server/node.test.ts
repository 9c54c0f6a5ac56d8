// @vitest-environment node
/**
 * toNodeHandler on a real `node:http` server (what Express runs on): the Fetch request it builds,
 * bodies parsed before it (`express.json()`), streamed answers with backpressure, and the abort
 * when the client goes away.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionHandler, toNodeHandler, type NodeHandler, type RouteHandler } from '../../../src/server';
import { startEmulator } from '../../../src/emulator';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** Serves `node` (optionally after `before`, standing for Express middleware). */
async function serve(
  node: NodeHandler,
  before?: (
    req: IncomingMessage & { originalUrl?: string; body?: unknown },
    res: ServerResponse,
  ) => Promise<void> | void,
): Promise<string> {
  const server = createServer(async (req, res) => {
    await before?.(req, res);
    await node(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A Node client request, for what `fetch` hides (pausing, destroying mid-answer). */
function nodeGet(url: string): Promise<{ res: IncomingMessage; destroy(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => resolve({ res, destroy: () => req.destroy() }));
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}

/** Reads an answer chunk by chunk, as it arrives; `ended` settles at its end. */
function chunksOf(res: IncomingMessage): { next(): Promise<string>; ended: Promise<void> } {
  const arrived: string[] = [];
  let wake: (() => void) | undefined;
  res.on('data', (chunk: Buffer) => {
    arrived.push(chunk.toString('utf8'));
    wake?.();
  });
  const ended = new Promise<void>((resolve) => res.once('end', resolve));
  return {
    async next() {
      while (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return arrived.shift()!;
    },
    ended,
  };
}

describe('toNodeHandler', () => {
  it('builds the Fetch request: method, URL (originalUrl first), repeated headers, streamed body', async () => {
    const echo: RouteHandler = async (request) =>
      Response.json({
        method: request.method,
        url: request.url,
        accept: request.headers.get('x-multi'),
        body: await request.text(),
      });
    const url = await serve(toNodeHandler(echo), (req) => {
      // Express mounts sub-routers by rewriting `url` and keeping the original.
      req.originalUrl = `/api${req.url ?? ''}`;
    });
    const answer = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        `${url}/session?x=1`,
        { method: 'POST', headers: { 'x-multi': ['a', 'b'], 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.write('{"surface":');
      req.end('"chat"}');
    });
    const body = JSON.parse(answer) as Record<string, string>;
    expect(body['method']).toBe('POST');
    expect(new URL(body['url']!).pathname + new URL(body['url']!).search).toBe('/api/session?x=1');
    expect(body['accept']).toBe('a, b');
    expect(body['body']).toBe('{"surface":"chat"}');
  });

  it('sends on a body that a parser (express.json()) already read', async () => {
    const echo: RouteHandler = async (request) => new Response(await request.text());
    const url = await serve(toNodeHandler(echo), async (req) => {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      req.body = JSON.parse(text) as unknown;
    });
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ surface: 'dashboard', publicId: 'p' }),
    });
    expect(JSON.parse(await response.text())).toEqual({ surface: 'dashboard', publicId: 'p' });
  });

  it('writes status and headers, each Set-Cookie on its own, and no body for GET with none', async () => {
    const handler: RouteHandler = async () => {
      const headers = new Headers({ 'x-answer': '42' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response(null, { status: 204, headers });
    };
    const url = await serve(toNodeHandler(handler));
    const response = await fetch(url);
    expect(response.status).toBe(204);
    expect(response.headers.get('x-answer')).toBe('42');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('streams each chunk as the handler produces it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler: RouteHandler = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode('one\n'));
            await released;
            controller.enqueue(new TextEncoder().encode('two\n'));
            controller.close();
          },
        }),
      );
    const url = await serve(toNodeHandler(handler));
    const { res } = await nodeGet(url);
    const chunks = chunksOf(res);
    // The handler has not produced its second chunk: the first must already be here.
    expect(await chunks.next()).toBe('one\n');
    release();
    expect(await chunks.next()).toBe('two\n');
    await chunks.ended;
  });

  it('a body that fails mid-way: the bytes before the failure reach the client, then the connection is cut', async () => {
    // A proxied stream (pulled, as the chat proxy's is) whose upstream dropped right after its
    // last lines: the write and the cut come in the same turn of the event loop.
    let pulls = 0;
    const handler: RouteHandler = async () =>
      new Response(
        new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              pulls += 1;
              if (pulls === 1) controller.enqueue(new TextEncoder().encode('{"id":"__cutoff__"}\n{"id":"a"}\n'));
              else controller.error(new Error('upstream connection lost'));
            },
          },
          { highWaterMark: 0 },
        ),
      );
    const url = await serve(toNodeHandler(handler));
    const { res } = await nodeGet(url);
    let received = '';
    res.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const outcome = await new Promise<string>((resolve) => {
      res.once('end', () => resolve('end'));
      res.once('aborted', () => resolve('aborted'));
      res.once('error', () => resolve('error'));
      res.once('close', () => resolve('close'));
    });
    expect(received).toBe('{"id":"__cutoff__"}\n{"id":"a"}\n');
    // Not a clean end: the client must see that the answer broke off.
    expect(outcome).not.toBe('end');
    expect(res.complete).toBe(false);
  });

  it('aborts the request signal and cancels the body when the client disconnects', async () => {
    let signal: AbortSignal | undefined;
    const cancelled = vi.fn();
    const handler: RouteHandler = async (request) => {
      signal = request.signal;
      return new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('first\n'));
          },
          cancel: cancelled,
        }),
      );
    };
    const url = await serve(toNodeHandler(handler));
    const { res, destroy } = await nodeGet(url);
    expect(await chunksOf(res).next()).toBe('first\n');
    expect(signal?.aborted).toBe(false);
    destroy();
    await vi.waitFor(() => expect(signal?.aborted).toBe(true));
    await vi.waitFor(() => expect(cancelled).toHaveBeenCalledOnce());
  });

  it('respects backpressure: stops pulling the body while the client does not read', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(120);
    let pulls = 0;
    let response: ServerResponse | undefined;
    const handler: RouteHandler = async () =>
      new Response(
        new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              pulls += 1;
              controller.enqueue(chunk);
            },
          },
          { highWaterMark: 0 },
        ),
      );
    const url = await serve(toNodeHandler(handler), (_req, res) => {
      response = res;
    });
    const { res, destroy } = await nodeGet(url);
    res.pause();
    await vi.waitFor(() => expect(response?.writableNeedDrain).toBe(true), { timeout: 10_000 });
    const stalled = pulls;
    // Many turns of the event loop later, while nobody reads, the body has not been pulled again.
    for (let turn = 0; turn < 50; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(pulls).toBe(stalled);
    expect(stalled * chunk.length).toBeLessThan(64 * 1024 * 1024);
    res.resume();
    await vi.waitFor(() => expect(pulls).toBeGreaterThan(stalled));
    destroy();
  });

  it('a handler that throws: Express `next(error)`, else 500 and onError', async () => {
    const failure = new Error('boom');
    const handler: RouteHandler = async () => {
      throw failure;
    };
    const next = vi.fn();
    const withNext = toNodeHandler(handler);
    const url = await serve((req, res) =>
      withNext(req, res, (error) => {
        next(error);
        res.statusCode = 418;
        res.end();
      }),
    );
    expect((await fetch(url)).status).toBe(418);
    expect(next).toHaveBeenCalledWith(failure);

    const onError = vi.fn();
    const bare = await serve(toNodeHandler(handler, { onError }));
    expect((await fetch(bare)).status).toBe(500);
    expect(onError).toHaveBeenCalledWith(failure);
  });

  it('a handler that stops because the client went away is not an error: no next(error), no onError', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    // As the chat and data proxies do: an upstream fetch on the request's signal rejects with its reason.
    const handler: RouteHandler = (request) =>
      new Promise((_resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
        started();
      });
    const next = vi.fn();
    const onError = vi.fn();
    const withNext = toNodeHandler(handler, { onError });
    let ended!: Promise<void>;
    const url = await serve((req, res) => {
      ended = new Promise((resolve) => res.on('close', resolve));
      return withNext(req, res, next);
    });
    const client = httpRequest(url);
    client.on('error', () => {});
    client.end();
    await running;
    client.destroy();
    await ended;
    // A turn for a late report to arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(next).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
  });

  it('serves the session handler for Express-style apps end to end (emulator)', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const handler = createSessionHandler({
        baseUrl: emulator.url,
        apiKey: emulator.apiKey,
        deploymentId: 1,
        resolve: (request) =>
          request.headers.get('cookie') === 'sid=ann' ? { externalId: 'ann@partner.example' } : null,
      });
      const url = await serve(toNodeHandler(handler), async (req) => {
        let text = '';
        for await (const chunk of req) text += String(chunk);
        req.body = text === '' ? undefined : (JSON.parse(text) as unknown);
      });
      const ok = await fetch(`${url}/api/embed-session`, {
        method: 'POST',
        headers: { cookie: 'sid=ann', 'content-type': 'application/json' },
        body: JSON.stringify({ surface: 'chat' }),
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('cache-control')).toBe('no-store');
      expect(((await ok.json()) as { sessionId: string }).sessionId).toMatch(/^[0-9a-f]{32}$/);
      const anonymous = await fetch(`${url}/api/embed-session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      expect(anonymous.status).toBe(401);
    } finally {
      await emulator.close();
    }
  });
});
