/**
 * `createChatProxyHandler`: the host application's chat route, between the browser's chat client
 * and the Chat API (interface §2.8, §4.4, §5, §7; behaviour §1: a browser chats through a route of
 * the host's own server that adds the key, and the body is piped back).
 *
 * What crosses it:
 * - browser to service: only `input`, `chatId`, `messageId`, `activeBranchName`,
 *   `isDefaultBranch` (checked with the protocol's `validateChatRequest`), plus the API key and the
 *   `sessionSettings` the server decides. Anything else, a browser-sent `sessionSettings` first,
 *   is dropped. No browser header (cookies included) goes upstream.
 * - service to browser: the NDJSON body, piped chunk by chunk as it arrives, read at most 64 KiB
 *   ahead of the browser (backpressure; a dropped connection still delivers every line read before
 *   the drop, then breaks the browser's stream too); status and body of HTTP errors and of the JSON-RPC
 *   authentication error. Every copy of the key is scrubbed from all of it, and only JSON and
 *   NDJSON are passed on as such: any other error body (an HTML page) is wrapped into JSON.
 * - the browser going away aborts the upstream request; so do `timeoutMs` without an answer and
 *   `streamIdleTimeoutMs` of silence within one.
 * - only same-origin (or `allowedOrigins`) requests with a JSON body are served: no form posts.
 *
 * @module
 */
import { ServiceConfigError, ServiceValidationError, codeForStatus } from '../core/errors';
import { checkOptions, isAmount, isFilled } from '../core/http';
import {
  CHAT_ABORT_PATH,
  CHAT_STREAM_PATH,
  sessionSettingsProblems,
  validateChatRequest,
  type SessionSettings,
} from '../core/protocol/chat';
import { BROWSER_CHAT_FIELDS, type BrowserChatRequest } from '../core/protocol/host-routes';
import { isRecord } from '../core/protocol/shared';
import type { RouteHandler } from './session-handler';
import {
  DEFAULT_TIMEOUT_MS,
  SAFE_HEADERS,
  checkServiceUrl,
  createKeyScrubber,
  defaultExposeErrorDetails,
  errorAnswer,
  isResponse,
  readCapped,
  readLimitedText,
  refuseForeignRequest,
  report,
  resolveAllowedOrigins,
  timeoutCheck,
  timeoutError,
  upstreamController,
  withSafeHeaders,
  type HandlerErrorListener,
} from './transport';

/** The second argument of `resolveSessionSettings`: which route, and the browser's checked body. */
export type ChatProxyContext =
  | {
      /** The stream route: the browser asks a question or reads or resumes a thread. */
      route: 'stream';
      /** The browser's chat request, checked and cut to the fields a browser may send. */
      body: BrowserChatRequest;
    }
  | {
      /** The abort route: the browser asks to stop an answer. */
      route: 'abort';
      /** The browser's abort request, checked. */
      body: {
        /** The thread to stop; the service lets only its owner abort it, so resolve the same user as for the stream. */
        chatId: string;
      };
    };

/** What `resolveSessionSettings` may answer. */
export type SessionSettingsResolution = SessionSettings | Response | null | undefined;

/** Options of {@link createChatProxyHandler}. */
export interface ChatProxyOptions {
  /**
   * `{ai_url}` of the agent: `https://<ai host>/api/v1/public/{accountName}/agents/{agentId}`.
   * Only https; plain http on loopback alone, for the emulator.
   */
  aiUrl: string;
  /** An API key, sent upstream as `Authorization: Api-Key <key>` (§5). Never reaches the browser. */
  apiKey: string;
  /**
   * Decides who the chat user is, from the host's own authentication; called for both routes.
   * Return the chat `sessionSettings` (§2.8: exactly one of `externalId`, lowercase with no spaces,
   * or `internalId`; groups, attributes, security context…), `null`/`undefined` when nobody is
   * signed in (answered 401), or a `Response` for any other refusal (sent as it is). The abort
   * route needs the same user as the stream: the service only lets a thread's owner abort it.
   */
  resolveSessionSettings(
    request: Request,
    context: ChatProxyContext,
  ): SessionSettingsResolution | Promise<SessionSettingsResolution>;
  /** The `fetch` for upstream requests. Default: `globalThis.fetch`. */
  fetch?: typeof fetch;
  /**
   * Put details in error bodies (the problems of invalid `sessionSettings` from the resolver).
   * Default: on unless `process.env.NODE_ENV` is `production`. The API key is never in an answer.
   */
  exposeErrorDetails?: boolean;
  /** Called with every server-side failure (resolver threw or was invalid, upstream unreachable). Default: `console.error`. */
  onError?: HandlerErrorListener;
  /** Largest browser body accepted, in bytes; larger ones get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Longest wait for the service's answer (its headers), in milliseconds. Default 30,000. A
   * service that accepts the connection and then says nothing is answered 504
   * `{ error, code: 'upstream_timeout' }` instead of holding the browser (and a server slot).
   */
  timeoutMs?: number;
  /**
   * Longest silence within a streamed answer, in milliseconds. Default 120,000 (agents think for a
   * while between lines, never this long). After it the upstream request is stopped and the
   * browser's stream ends with the line `{"error": "…", "code": "upstream_timeout"}`, which the
   * chat client reports as a `ServiceStreamError`, rather than hanging.
   */
  streamIdleTimeoutMs?: number;
  /**
   * Origins of other sites whose pages may call these routes with the viewer's cookies, such as
   * `['https://admin.partner.example']`. Default: none, so only pages of the route's own origin
   * can: the browser says `Sec-Fetch-Site: same-origin`, or the `Origin` equals the origin the
   * browser used (`X-Forwarded-Proto` + `X-Forwarded-Host` behind a proxy, else `Host`). Any other
   * cross-site request is refused with 403 `cross_site_request`: without this, a page elsewhere
   * could chat as the viewer.
   */
  allowedOrigins?: readonly string[];
}

/**
 * The proxy: called as a handler, it serves both routes by the end of the request path
 * (`…/chat/stream-chat-state`, `…/chat/abort`, the paths the core chat client appends to its
 * `url`); `stream` and `abort` serve one route each, whatever the path.
 */
export interface ChatProxyHandler extends RouteHandler {
  /** `POST …/chat/stream-chat-state`. */
  stream: RouteHandler;
  /** `POST …/chat/abort`. */
  abort: RouteHandler;
}

/** Default of {@link ChatProxyOptions.maxBodyBytes}. */
export const DEFAULT_MAX_CHAT_BODY_BYTES = 1024 * 1024;

/** Default of {@link ChatProxyOptions.streamIdleTimeoutMs}. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

const WHO = 'createChatProxyHandler';
const UPSTREAM_ACCEPT = 'application/x-ndjson, application/json, text/plain';

/**
 * Headers of every streamed answer: the safe ones, and `X-Accel-Buffering: no` so that nginx-style
 * reverse proxies in front of the host pass each chunk on instead of buffering the answer.
 */
const STREAM_HEADERS = { ...SAFE_HEADERS, 'X-Accel-Buffering': 'no' };

const JSON_TYPE = 'application/json; charset=utf-8';
const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';

/**
 * The type an upstream body is passed on with: JSON or NDJSON only (`undefined` for anything
 * else, such as an HTML error page, which must never be served from the host's origin).
 */
/** The link between the browser's request and the upstream one: its signal, time limits and release. */
type UpstreamLink = ReturnType<typeof upstreamController>;

function passedType(contentType: string | null): string | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type)) return JSON_TYPE;
  if (type === 'application/x-ndjson' || type === 'application/ndjson') return NDJSON_TYPE;
  return undefined;
}

/** Error bodies of the service passed through are cut here, unread beyond; they are short in practice. */
const MAX_PASSED_ERROR_BYTES = 64 * 1024;
/** How far the proxy reads a chat stream ahead of the browser (bytes held while the browser is slow). */
const PROXY_READ_AHEAD_BYTES = 64 * 1024;

/** A plain-text error of the service at most this long keeps its words in `error`. */
const MAX_PLAIN_ERROR_CHARS = 500;

const encoder = new TextEncoder();

function pathOf(request: Request): string {
  try {
    return new URL(request.url).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

/**
 * Creates the host's chat proxy route. Mount it where the core chat client's `url` points: with
 * `createChatClient({ url: '/api/service' })` the browser posts to
 * `/api/service/chat/stream-chat-state` and `/api/service/chat/abort`.
 *
 * ```ts
 * // app/api/service/chat/[action]/route.ts (Next.js)
 * export const POST = createChatProxyHandler({
 *   aiUrl: process.env.SERVICE_AI_URL!, apiKey: process.env.SERVICE_API_KEY!,
 *   async resolveSessionSettings() {
 *     const user = await currentUser();
 *     return user && { externalId: user.id, groups: user.teams };
 *   },
 * });
 * // Express: app.use('/api/service/chat', toNodeHandler(chatProxy));
 * ```
 *
 * Answers of its own (the service's pass through): 405 not a POST; 404 another path; 403
 * cross-site (`cross_site_request`); 415 body not declared `application/json`; 413 body too
 * large; 400 body not JSON or a field invalid (`problems`); 401 resolver returned nothing; 500
 * resolver threw or returned invalid settings; 502 the service could not be reached; 504 it did
 * not answer within `timeoutMs` (`upstream_timeout`). All are JSON `{ error, code }`; every
 * answer, passed through or not, has `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.
 */
export function createChatProxyHandler(options: ChatProxyOptions): ChatProxyHandler {
  if (!isRecord(options) || typeof options.resolveSessionSettings !== 'function') {
    throw new ServiceConfigError(
      `${WHO}: pass \`resolveSessionSettings(request)\`, which decides who the chat user is`,
    );
  }
  const { apiKey, resolveSessionSettings, onError } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_CHAT_BODY_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const idleMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  // The key itself is never put in a message: messages end up in logs.
  checkOptions(WHO, [
    [isFilled(apiKey) && !/\s/.test(apiKey), '`apiKey` must be a non-empty API key without spaces'],
    [options.fetch === undefined || typeof options.fetch === 'function', '`fetch` must be a function'],
    [isAmount(maxBodyBytes, 1, true), '`maxBodyBytes` must be a whole number of bytes, 1 or more'],
    timeoutCheck(timeoutMs, 'timeoutMs'),
    timeoutCheck(idleMs, 'streamIdleTimeoutMs'),
  ]);
  const aiUrl = checkServiceUrl(options.aiUrl, 'aiUrl', WHO);
  const expose = options.exposeErrorDetails ?? defaultExposeErrorDetails();
  const allowedOrigins = resolveAllowedOrigins(options.allowedOrigins, WHO);

  function fetchImpl(): typeof fetch {
    const impl = options.fetch ?? globalThis.fetch;
    if (typeof impl !== 'function') throw new ServiceConfigError(`${WHO}: no \`fetch\` available: pass \`fetch\``);
    return impl;
  }

  /** Removes every copy of the key from text that goes to the browser, whatever the service echoed. */
  function scrub(text: string): string {
    return text.split(apiKey).join('[redacted]');
  }

  /** The browser's JSON object body, or the answer refusing it. */
  async function readBody(request: Request): Promise<Record<string, unknown> | Response> {
    if (request.method !== 'POST') {
      return errorAnswer(405, { error: 'Use POST', code: 'method_not_allowed' }, { Allow: 'POST' });
    }
    const foreign = refuseForeignRequest(request, allowedOrigins);
    if (foreign) return foreign;
    let text: string | undefined;
    try {
      text = await readLimitedText(request, maxBodyBytes);
    } catch {
      return errorAnswer(400, { error: 'The request body could not be read', code: 'bad_request' });
    }
    if (text === undefined)
      return errorAnswer(413, { error: 'The request body is too large', code: 'payload_too_large' });
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      return errorAnswer(400, { error: 'The request body is not JSON', code: 'bad_request' });
    }
    if (!isRecord(value))
      return errorAnswer(400, { error: 'The request body must be a JSON object', code: 'bad_request' });
    return value;
  }

  /** The server-decided settings, or the answer refusing the request. */
  async function settingsFor(request: Request, context: ChatProxyContext): Promise<SessionSettings | Response> {
    let resolution: SessionSettingsResolution;
    try {
      resolution = await resolveSessionSettings(request, context);
    } catch (error) {
      report(onError, error, request);
      return errorAnswer(500, { error: 'Could not decide who the chat user is', code: 'internal_error' });
    }
    if (isResponse(resolution)) return withSafeHeaders(resolution);
    if (resolution === null || resolution === undefined) {
      return errorAnswer(401, { error: 'Sign in to use the chat', code: 'unauthorized' });
    }
    const problems = sessionSettingsProblems(resolution);
    if (problems.length > 0) {
      report(
        onError,
        new ServiceValidationError(problems, {
          message: `resolveSessionSettings returned invalid sessionSettings: ${problems.join('; ')}`,
        }),
        request,
      );
      return errorAnswer(500, {
        error: 'The server decided invalid chat sessionSettings',
        code: 'invalid_session_settings',
        ...(expose ? { problems } : {}),
      });
    }
    return resolution;
  }

  /**
   * Sends `body` to `path` below `{ai_url}` and turns the answer into the browser's: a 2xx body
   * piped through (key scrubbed, idle limit), an error passed through as JSON (key scrubbed, cut
   * at 64 KiB), no body for 204.
   */
  async function forward(request: Request, path: string, body: unknown): Promise<Response> {
    if (request.signal.aborted) return errorAnswer(499, { error: 'The request was cancelled', code: 'aborted' });
    // Follows the browser's signal (its going away stops the upstream request) and the time limits.
    const link = upstreamController(request.signal);
    link.start(timeoutMs);

    let upstream: Response;
    try {
      upstream = await fetchImpl()(`${aiUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: UPSTREAM_ACCEPT, Authorization: `Api-Key ${apiKey}` },
        body: JSON.stringify(body),
        signal: link.signal,
      });
    } catch (error) {
      link.release();
      if (request.signal.aborted) return errorAnswer(499, { error: 'The request was cancelled', code: 'aborted' });
      if (link.timedOut) {
        report(onError, timeoutError('chat proxy', timeoutMs), request);
        return errorAnswer(504, { error: 'The chat service did not answer in time', code: 'upstream_timeout' });
      }
      report(onError, error, request);
      return errorAnswer(502, { error: 'The chat service could not be reached', code: 'bad_gateway' });
    }
    link.stop();

    const { status } = upstream;
    if (status === 204 || status === 205 || status === 304) {
      link.release();
      await upstream.body?.cancel().catch(() => {});
      return new Response(null, { status, headers: SAFE_HEADERS });
    }
    const type = passedType(upstream.headers.get('content-type'));
    if (!upstream.ok) return passError(upstream, type, link);
    return pipeAnswer(request, upstream, type, link);
  }

  /** An upstream error answer, passed on as JSON (key scrubbed, cut at 64 KiB), or as our own `{ error, code }`. */
  async function passError(upstream: Response, type: string | undefined, link: UpstreamLink): Promise<Response> {
    const { status } = upstream;
    let text = '';
    try {
      link.start(timeoutMs);
      ({ text } = await readCapped(upstream.body, MAX_PASSED_ERROR_BYTES));
    } catch {
      // The status is what matters; an unreadable body is passed on empty.
    } finally {
      link.release();
    }
    text = scrub(text);
    if (type) return new Response(text, { status, headers: { 'Content-Type': type, ...SAFE_HEADERS } });
    // Anything else (an HTML error page of a proxy in between) is never served as it is.
    const plain =
      /^text\/plain\b/i.test(upstream.headers.get('content-type') ?? '') && text.trim().length <= MAX_PLAIN_ERROR_CHARS;
    return errorAnswer(status, {
      error: plain && text.trim() !== '' ? text.trim() : `The chat service answered HTTP ${status}`,
      code: codeForStatus(status),
    });
  }

  /** A 2xx upstream body piped to the browser: key scrubbed, read ahead by a bounded amount, idle limit. */
  function pipeAnswer(request: Request, upstream: Response, type: string | undefined, link: UpstreamLink): Response {
    const { status } = upstream;
    const headers = { 'Content-Type': type ?? NDJSON_TYPE, ...STREAM_HEADERS };
    if (!upstream.body) {
      link.release();
      return new Response(null, { status, headers });
    }
    const reader = upstream.body.getReader();
    const scrubber = createKeyScrubber(apiKey);
    /** Whether the browser's stream so far ends with a newline, so that a last line of ours starts a line. */
    let atLineStart = true;
    const emit = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
      if (bytes.length === 0) return false;
      atLineStart = bytes[bytes.length - 1] === 10;
      controller.enqueue(bytes);
      return true;
    };
    // Read ahead of the browser by at most PROXY_READ_AHEAD_BYTES: past that, a chunk is read from
    // the service only when the browser takes one (backpressure), and every chunk goes out as soon
    // as it arrives. The read-ahead is what keeps lines: Node's fetch drops what it has queued when
    // the connection fails, so they must already be here. The idle limit runs only while waiting
    // on the service, never while the browser is slow to read.
    /** The service's connection dropped: the browser's stream breaks too, once it has every line. */
    let failure: { error: unknown } | undefined;
    // Erroring a stream drops its queue: break it only once the browser has taken the last chunk.
    const breakWhenDrained = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
      if (failure && controller.desiredSize === PROXY_READ_AHEAD_BYTES) controller.error(failure.error);
    };
    const piped = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (failure) return breakWhenDrained(controller);
          for (;;) {
            let result: ReadableStreamReadResult<Uint8Array>;
            link.start(idleMs);
            try {
              result = await reader.read();
            } catch (error) {
              link.release();
              if (link.timedOut) {
                report(onError, timeoutError('chat stream', idleMs), request);
                emit(controller, scrubber.end());
                const line = JSON.stringify({
                  error: `The chat service sent nothing for ${idleMs} ms`,
                  code: 'upstream_timeout',
                });
                controller.enqueue(encoder.encode(`${atLineStart ? '' : '\n'}${line}\n`));
                controller.close();
                return;
              }
              // The service's connection dropped mid-stream: end the browser's the same way, so its
              // chat client sees a lost connection (and resubscribes), not a clean end.
              failure = { error };
              emit(controller, scrubber.end());
              return breakWhenDrained(controller);
            }
            link.stop();
            if (result.done) {
              link.release();
              emit(controller, scrubber.end());
              controller.close();
              return;
            }
            if (emit(controller, scrubber.push(result.value))) return;
          }
        },
        async cancel(reason) {
          // The browser went away (or its runtime cancelled the body): stop the upstream request.
          link.abort(reason);
          link.release();
          await reader.cancel(reason).catch(() => {});
        },
      },
      { highWaterMark: PROXY_READ_AHEAD_BYTES, size: (chunk) => chunk.byteLength },
    );
    return new Response(piped, { status, headers });
  }

  const stream: RouteHandler = async (request) => {
    const raw = await readBody(request);
    if (isResponse(raw)) return raw;
    const body: Record<string, unknown> = {};
    for (const field of BROWSER_CHAT_FIELDS) if (raw[field] !== undefined) body[field] = raw[field];
    // `auth: 'token'`: sessionSettings is the server's business, not checked from the browser.
    const checked = validateChatRequest(body, { auth: 'token' });
    if (!checked.ok)
      return errorAnswer(400, { error: 'Invalid chat request', code: 'bad_request', problems: checked.problems });
    const settings = await settingsFor(request, { route: 'stream', body: checked.value });
    if (isResponse(settings)) return settings;
    return forward(request, CHAT_STREAM_PATH, { ...checked.value, sessionSettings: settings });
  };

  const abort: RouteHandler = async (request) => {
    const raw = await readBody(request);
    if (isResponse(raw)) return raw;
    const { chatId } = raw;
    const checked = validateChatRequest({ chatId }, { auth: 'token' });
    if (chatId === undefined || !checked.ok || typeof chatId !== 'string') {
      const problems = checked.ok ? ['chatId: is required, the chat id of the stream to stop'] : checked.problems;
      return errorAnswer(400, { error: 'Invalid abort request', code: 'bad_request', problems });
    }
    const settings = await settingsFor(request, { route: 'abort', body: { chatId } });
    if (isResponse(settings)) return settings;
    return forward(request, CHAT_ABORT_PATH, { chatId, sessionSettings: settings });
  };

  const handler = (async (request: Request) => {
    const path = pathOf(request);
    if (path.endsWith(CHAT_STREAM_PATH)) return stream(request);
    if (path.endsWith(CHAT_ABORT_PATH)) return abort(request);
    return errorAnswer(404, {
      error: `No chat route here: the path must end with ${CHAT_STREAM_PATH} or ${CHAT_ABORT_PATH}`,
      code: 'not_found',
    });
  }) as ChatProxyHandler;
  handler.stream = stream;
  handler.abort = abort;
  return handler;
}
