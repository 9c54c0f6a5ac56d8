/**
 * `toNodeHandler`: runs a Fetch-standard route handler on Node's `http` request and response
 * objects, for Express, Connect, Fastify's raw mode or a bare `http.createServer`.
 *
 * It needs no Node import: `req` and `res` are used through the few members every Node HTTP
 * server has ({@link NodeRequestLike}, {@link NodeResponseLike}), so this module, and the server
 * entry that exports it, stay loadable in edge runtimes.
 *
 * @module
 */
import type { RouteHandler } from './session-handler';
import { checkOptions } from '../core/http';
import { errorAnswer, isHost, timeoutCheck } from './transport';

/** The members of Node's `IncomingMessage` (and Express's `req`) that the adapter uses. */
export interface NodeRequestLike extends AsyncIterable<unknown> {
  /** The HTTP method, such as `POST`. */
  method?: string | undefined;
  /** Path and query; below the mount point in Express sub-routers (then `originalUrl` has the whole). */
  url?: string | undefined;
  /** Express: the path and query as the client sent them. */
  originalUrl?: string | undefined;
  /** Request headers as Node parses them (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  /** The connection; a TLS socket has `encrypted: true`, which makes `request.url` https. */
  socket?: object | null | undefined;
  /** True once a body parser (`express.json()`) has read the body. */
  readableEnded?: boolean | undefined;
  /** What a body parser made of the body; sent on as JSON when the stream was already read. */
  body?: unknown;
}

/** The members of Node's `ServerResponse` that the adapter uses. */
export interface NodeResponseLike {
  /** The status to send; set before the headers go out. */
  statusCode: number;
  /** True once the status and headers went out. */
  readonly headersSent: boolean;
  /** True once the whole answer was handed to the socket. */
  readonly writableFinished: boolean;
  /** Bytes written but not yet handed to the socket (Node's `ServerResponse` has it). */
  readonly writableLength?: number;
  /** The connection under the response. */
  readonly socket?: {
    /** Bytes not yet handed to the kernel. */
    readonly writableLength: number;
    /** Closes the connection: after an answer to a request whose body never ended (see `lingerMs`). */
    destroy?(): unknown;
  } | null;
  /** Sets one response header. */
  setHeader(name: string, value: string | readonly string[]): unknown;
  /** Sends the status and headers at once, before the first body chunk (so a stream starts right away). */
  flushHeaders?(): void;
  /** Writes a body chunk; `false` asks to wait for `drain` (backpressure). */
  write(chunk: Uint8Array): boolean;
  /** Ends the answer. */
  end(): unknown;
  /** Cuts the connection (an answer that failed mid-stream). */
  destroy(error?: Error): unknown;
  /** `close`: the client left or the answer ended; `drain`: writing may go on. */
  on(event: 'close' | 'drain', listener: () => void): unknown;
  /** Removes a listener added with `on`. */
  off(event: 'close' | 'drain', listener: () => void): unknown;
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Called when the handler throws or the answer cannot be written (the route handlers of this
   * package answer their own errors; this is for the unexpected). Default: `console.error`.
   */
  onError?: (error: unknown) => void;
  /**
   * How long, in milliseconds, the connection keeps reading (and dropping) a request body that
   * the handler answered before it ended (a 413 once a body passes its limit, a 415 refused
   * unread), counted from the end of the answer. A client that sends its whole body before it
   * reads the answer can finish and read it; a body still coming after this is cut off by closing
   * the connection, so an endless body costs at most this long. Default {@link DEFAULT_LINGER_MS}.
   */
  lingerMs?: number;
}

/** Default of {@link NodeHandlerOptions.lingerMs}: 2 s. */
export const DEFAULT_LINGER_MS = 2000;

/** A Node-style handler; `next` (Express) receives errors the handler throws before answering. */
export type NodeHandler = (
  req: NodeRequestLike,
  res: NodeResponseLike,
  next?: (error?: unknown) => void,
) => Promise<void>;

const encoder = new TextEncoder();

/** The request's URL, or `undefined` when its `Host` header is not a host. */
function urlOf(req: NodeRequestLike): string | undefined {
  const host = [req.headers['host']].flat()[0] ?? 'localhost';
  if (!isHost(host)) return undefined;
  const encrypted = (req.socket as { encrypted?: unknown } | null | undefined)?.encrypted === true;
  try {
    return new URL(`${encrypted ? 'https' : 'http'}://${host}${req.originalUrl ?? req.url ?? '/'}`).href;
  } catch {
    return undefined;
  }
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return encoder.encode(chunk);
  throw new TypeError('toNodeHandler: the request stream yielded something other than bytes or text');
}

function headersOf(req: NodeRequestLike): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:path`) are not headers of a Fetch request.
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

/** The request body for the Fetch request, and what is left of it once the answer is out. */
interface RequestBody {
  /** The body: the stream, pulled as the handler reads it, or what a body parser left. */
  init: BodyInit | undefined;
  /**
   * Reads and drops the rest of the body for at most `ms`: true when it ended (or was read
   * already), false when it was still coming.
   */
  discardRest(ms: number): Promise<boolean>;
}

const NO_BODY: RequestBody = { init: undefined, discardRest: async () => true };

function bodyOf(req: NodeRequestLike): RequestBody {
  if (req.readableEnded) {
    if (req.body === undefined || req.body === null) return NO_BODY;
    const { body } = req;
    const init = typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
    return { init, discardRest: NO_BODY.discardRest };
  }
  const iterator = req[Symbol.asyncIterator]();
  let ended = false;
  const init = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await iterator.next();
        if (done) {
          ended = true;
          controller.close();
        } else controller.enqueue(toBytes(value));
      },
      // The handler stopped reading (a body over its limit): the rest is left to discardRest.
      // Ending the iterator here would destroy the request, and with it, depending on the Node
      // version, the connection before the answer is written, or its reading, so that the client
      // stalls on a full socket until the keep-alive timeout resets it.
    },
    { highWaterMark: 0 },
  );
  return {
    init,
    async discardRest(ms) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, ms, 'late')));
      try {
        while (!ended) {
          const next = iterator.next();
          // A pending read fails once the connection closes: nobody waits for it then.
          next.catch(() => undefined);
          const result = await Promise.race([next, late]);
          if (result === 'late') return false;
          ended = result.done === true;
        }
        return true;
      } catch {
        // The client went away while it sent: nothing left to read.
        return true;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Resolves when `res` can take more (`drain`) or is gone (`close`). */
function writable(res: NodeResponseLike): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Wraps a Fetch-standard handler (`createSessionHandler`, `createChatProxyHandler`) for Node:
 *
 * - the `Request` gets the method, the headers, the URL (`originalUrl` when Express has one) and
 *   the body, streamed (or, after `express.json()`, the parsed body as JSON);
 * - its `signal` aborts when the client disconnects before the answer is complete, which stops the
 *   chat proxy's upstream request;
 * - the `Response` is written back chunk by chunk with backpressure (waiting for `drain`), headers
 *   flushed first so a stream starts at once; a client that disconnects cancels the body;
 * - a handler that throws goes to Express's `next(error)` (else a 500 and `onError`), unless it
 *   threw because the client went away: that is not reported.
 *
 * ```ts
 * app.post('/api/embed-session', toNodeHandler(sessionHandler));
 * app.use('/api/service/chat', toNodeHandler(chatProxy)); // both routes; other methods get 405
 * ```
 */
export function toNodeHandler(handler: RouteHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const onError = options.onError ?? ((error: unknown) => console.error('@service/react/server:', error));
  const lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
  checkOptions('toNodeHandler', [timeoutCheck(lingerMs, 'lingerMs')]);
  return async function nodeHandler(req, res, next) {
    const disconnected = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) disconnected.abort(new Error('The client closed the connection'));
    };
    res.on('close', onClose);
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      const url = urlOf(req);
      if (url === undefined) {
        // The client's mistake (or a probe), not the server's: answered, not reported.
        await writeResponse(
          errorAnswer(400, { error: 'The Host header is not a valid host', code: 'bad_request' }),
          res,
          disconnected.signal,
        );
        return;
      }
      const body = method === 'GET' || method === 'HEAD' ? NO_BODY : bodyOf(req);
      const init: RequestInit & { duplex?: 'half' } = { method, headers: headersOf(req), signal: disconnected.signal };
      if (body.init !== undefined) {
        init.body = body.init;
        // Required by the Fetch standard for a streamed request body.
        init.duplex = 'half';
      }
      // Taken now: the response lets go of its connection once the answer is out.
      const socket = res.socket;
      let response: Response;
      try {
        response = await handler(new Request(url, init));
      } catch (error) {
        // The client went away and the handler stopped for it (an upstream fetch aborted by the
        // request's signal): nobody to answer, and nothing went wrong on the server.
        if (disconnected.signal.aborted) {
          res.end();
          return;
        }
        if (next) next(error);
        else {
          onError(error);
          if (!res.headersSent) res.statusCode = 500;
          res.end();
        }
        return;
      }
      await writeResponse(response, res, disconnected.signal);
      // Answered before the body ended: read on for a while, so the client can finish and read the
      // answer, then close rather than read an endless body forever.
      if (!(await body.discardRest(lingerMs))) {
        await flushed(res, socket);
        socket?.destroy?.();
      }
    } catch (error) {
      onError(error);
      res.destroy(error instanceof Error ? error : undefined);
    } finally {
      res.off('close', onClose);
    }
  };
}

const FLUSH_WAIT_MS = 500;

/**
 * Waits (at most {@link FLUSH_WAIT_MS}) until the bytes written so far have left for the socket.
 * Node corks a response's writes until the next tick, and a cut in the same turn would drop them:
 * a proxied stream whose last lines and failure arrive together would lose those lines (and with
 * them, say, the `chatId` a chat client needs to resubscribe).
 */
async function flushed(res: NodeResponseLike, socket = res.socket): Promise<void> {
  const pending = () => (res.writableLength ?? 0) + (socket?.writableLength ?? 0);
  for (let waited = 0; ; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, waited === 0 ? 0 : 5));
    if (pending() === 0 || waited >= FLUSH_WAIT_MS) return;
  }
}

async function writeResponse(response: Response, res: NodeResponseLike, disconnected: AbortSignal): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders?.();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel(disconnected.reason).catch(() => {});
  disconnected.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      if (disconnected.aborted) return;
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        // The body failed mid-way (the upstream connection dropped): cut the connection so the
        // client sees an incomplete answer rather than a clean end, once what came before is out.
        if (disconnected.aborted) return;
        await flushed(res);
        res.destroy(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (result.done) break;
      if (!res.write(result.value)) await writable(res);
    }
    if (!disconnected.aborted) res.end();
  } finally {
    disconnected.removeEventListener('abort', stop);
  }
}
