/**
 * The Chat API client (service-interface 2.8, 3, 4.4, 5, 7; service-behaviour 1): sends a chat
 * request, streams its NDJSON answer line by line, resubscribes when the connection drops, and
 * stops a running stream through the abort endpoint.
 *
 * Runs wherever `fetch` and `ReadableStream` exist (browsers, Node 20, workers): no Node API.
 *
 * @module
 */
import {
  ConnectionLostError,
  ServiceAbortError,
  ServiceAuthError,
  ServiceConfigError,
  ServiceHttpError,
  ServiceStreamError,
  ServiceValidationError,
  StreamingInProgressError,
} from './errors';
import type { ServiceError } from './errors';
import { readNdjson } from './ndjson';
import {
  CHAT_ABORT_PATH,
  CHAT_STREAM_PATH,
  STREAMING_IN_PROGRESS,
  classifyStreamLine,
  createMessageId,
  sessionSettingsProblems,
  validateChatRequest,
} from './protocol/chat';
import type {
  AbortRequest,
  AbortedLine,
  ChatRequest,
  CutoffLine,
  RpcErrorLine,
  SessionSettings,
  StateLine,
  StreamMessage,
  SuspendedLine,
  UsageLine,
} from './protocol/chat';
import { isRecord } from './protocol/shared';

// ---------------------------------------------------------------------------------------------
// Public types

/**
 * How the client authenticates (service-interface 5).
 *
 * - `{ apiKey }`: `Authorization: Api-Key <key>`; every chat request then needs `sessionSettings`
 *   (rule 4). Server-side only: an API key must never reach a browser (service-behaviour 1).
 * - `{ token }`: a deployment JWT sent as `X-Service-Auth-Token` (rule 5). A getter is called before
 *   every HTTP request, resends included, so a short-lived token can be refreshed in time.
 *   `sessionSettings` is never sent: the service reads the user from the token's claims. An
 *   error thrown by the getter ends the stream (or the abort) with that same error.
 */
export type ChatAuth = { apiKey: string } | { token: string | (() => string | Promise<string>) };

/** Tuning of the automatic resubscription after a dropped connection. */
export interface ResubscribeOptions {
  /**
   * How many resends in a row may fail to bring anything new before the stream gives up with a
   * {@link ConnectionLostError}. A resend that yields at least one new line resets the count, so a
   * long answer survives several short outages. Default 3.
   */
  retries?: number;
  /** Delay before the first resend, doubled for each further one. Default 500 ms. */
  baseDelayMs?: number;
  /** Upper bound of one delay. Default 8000 ms. */
  maxDelayMs?: number;
}

/** What {@link ChatClientOptions.onResubscribe} is told before each resend. */
export interface ResubscribeEvent {
  /** 1 for the first resend after a failure, counting up while resends bring nothing new. */
  attempt: number;
  /** How long the client waits before it resends. */
  delayMs: number;
  /** `connection_lost`: the body broke off or ended early; `suspended`: the service sent `__suspended__`. */
  reason: 'connection_lost' | 'suspended';
  /** The thread the resend joins. */
  chatId: string;
  /** The network error, or the `__suspended__` line. */
  cause: unknown;
}

/** Options of {@link createChatClient}. */
export interface ChatClientOptions {
  /**
   * `{ai_url}` (`https://<ai host>/api/v1/public/{accountName}/agents/{agentId}`) or the host
   * application's own proxy route. The client posts to `{url}/chat/stream-chat-state` and
   * `{url}/chat/abort`; a trailing slash and a query string are kept in their place.
   */
  url: string;
  /**
   * The credential (service-interface 5). Omitted: neither auth header is sent and neither is
   * `sessionSettings`, because the only sane target is the host application's own proxy route,
   * whose server authenticates its user, decides who the chat user is and adds the API key.
   */
  auth?: ChatAuth;
  /**
   * Default chat user for API key authentication (2.8), used when a request brings none (a
   * request's own `sessionSettings` replaces it whole, no merge). Ignored with a token or without
   * `auth`.
   */
  sessionSettings?: SessionSettings;
  /**
   * The `fetch` to use; default `globalThis.fetch`, looked up at call time. Wrap it to add
   * headers or `credentials` for your own proxy route.
   */
  fetch?: typeof fetch;
  /** Resubscription after a dropped connection or `__suspended__`; `false` turns it off. On by default. */
  resubscribe?: false | ResubscribeOptions;
  /** Called with each JSON line that is not a line of the protocol; the line is then skipped. */
  onInvalidLine?: (value: unknown, reason: string) => void;
  /** Called with each line that is not JSON; the line is then skipped. */
  onMalformedLine?: (line: string, error: unknown) => void;
  /** Called before each resend, for example to show "reconnecting" in a UI. */
  onResubscribe?: (event: ResubscribeEvent) => void;
  /**
   * Silences the warning printed when an API key is used where a `document` exists. Only for a
   * page that never reaches real users (a local demo against the emulator). Default `false`.
   */
  dangerouslyAllowBrowser?: boolean;
}

/**
 * A line the client yields: chat messages and the sentinels `__cutoff__`, `__state__`,
 * `__aborted__` and `__usage__`. Error lines become thrown errors and `__suspended__` is handled
 * by the client (a resend), so neither is ever yielded.
 */
export type ChatStreamLine = StreamMessage | CutoffLine | StateLine | AbortedLine | UsageLine;

/** Options of {@link ChatClient.stream}. */
export interface ChatStreamOptions {
  /**
   * Stops the request and the reading on the client side: the iterator then throws a
   * {@link ServiceAbortError} and never resends. The agent keeps running on the service; call
   * {@link ChatClient.abort} to stop it.
   */
  signal?: AbortSignal;
}

/** Options of {@link ChatClient.abort}. */
export interface ChatAbortOptions {
  /**
   * Who asks, with API key authentication (4.4); default the client's `sessionSettings`. Optional
   * for the service, but without it the service cannot tell that the caller owns the thread.
   * Never sent with a token or without `auth`.
   */
  sessionSettings?: SessionSettings;
  /** Cancels the abort request; it then rejects with a {@link ServiceAbortError}. */
  signal?: AbortSignal;
}

/** A chat client bound to one `{ai_url}` and credential. */
export interface ChatClient {
  /**
   * Sends `request` and yields the stream's lines in order; nothing is sent before the first
   * `next()`. A `messageId` is generated for a new `input` that has none. The iterator ends after
   * `__usage__` (always the last line) or after `__aborted__` and the end of the body; a stream
   * stopped with {@link ChatClient.abort} therefore ends normally.
   *
   * When the connection drops before that end, or the service sends `__suspended__` (never
   * yielded), the same body (same `messageId`, plus the `chatId` of `__cutoff__`) is sent again
   * after a backoff, and what the service replays is not yielded a second time (see
   * {@link createReplayFilter} for how, and its limits). Only when the thread is known: without a
   * `chatId` (none in the request, no `__cutoff__` seen yet) a resend would open a second thread,
   * so the stream fails instead. An HTTP error answer is never resent, except 502/503/504 while
   * resubscribing (a restarting service behind a proxy).
   *
   * Throws (from the iterator): {@link ServiceConfigError} (no `sessionSettings` with an API key),
   * {@link ServiceValidationError} (invalid request), {@link ServiceHttpError} (400, 404, 5xx...),
   * {@link ServiceAuthError} (JSON-RPC error in the body, 401, 403), {@link StreamingInProgressError},
   * {@link ServiceStreamError} (an `{"error"}` line), {@link ConnectionLostError} (could not resume),
   * {@link ServiceAbortError} (the caller's `signal`). Lines yielded before an error stay yielded.
   */
  stream(request: ChatRequest, options?: ChatStreamOptions): AsyncGenerator<ChatStreamLine, void, undefined>;
  /**
   * Stops the running stream of `chatId` (4.4): resolves on 204. Rejects with a
   * {@link ServiceHttpError} (403 `forbidden`: the caller does not own the thread; 404
   * `not_found`: unknown chat id; others), a {@link ServiceAuthError} (401 or a JSON-RPC error),
   * or a {@link ServiceAbortError} (the `signal`).
   */
  abort(chatId: string, options?: ChatAbortOptions): Promise<void>;
}

/** Defaults of {@link ResubscribeOptions}. */
export const DEFAULT_RESUBSCRIBE: Readonly<Required<ResubscribeOptions>> = Object.freeze({
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
});

/** The `Accept` header of chat requests: the service serves NDJSON under any of these types. */
const ACCEPT = 'application/x-ndjson, application/json, text/plain';

/** Statuses a proxy answers while the service restarts; worth another try only while resubscribing. */
const TRANSIENT_STATUSES = new Set([502, 503, 504]);

// ---------------------------------------------------------------------------------------------
// Auth

type ResolvedAuth =
  | { kind: 'apiKey'; apiKey: string }
  | { kind: 'token'; token: string | (() => string | Promise<string>) }
  | { kind: 'none' };

function resolveAuth(auth: unknown): ResolvedAuth {
  if (auth === undefined) return { kind: 'none' };
  if (typeof auth !== 'object' || auth === null) {
    throw new ServiceConfigError('createChatClient: `auth` must be { apiKey } or { token }');
  }
  const hasKey = 'apiKey' in auth;
  const hasToken = 'token' in auth;
  if (hasKey && hasToken) {
    // The service would silently prefer Authorization (5.6): refuse instead of sending two identities.
    throw new ServiceConfigError('createChatClient: give `auth.apiKey` or `auth.token`, not both');
  }
  if (hasKey) {
    const { apiKey } = auth as { apiKey: unknown };
    if (typeof apiKey !== 'string' || apiKey.trim() === '') {
      throw new ServiceConfigError('createChatClient: `auth.apiKey` must be a non-empty string');
    }
    return { kind: 'apiKey', apiKey };
  }
  if (hasToken) {
    const { token } = auth as { token: unknown };
    if (typeof token === 'function') return { kind: 'token', token: token as () => string | Promise<string> };
    if (typeof token !== 'string' || token.trim() === '') {
      throw new ServiceConfigError('createChatClient: `auth.token` must be a non-empty string or a function returning one');
    }
    return { kind: 'token', token };
  }
  throw new ServiceConfigError('createChatClient: `auth` must be { apiKey } or { token }');
}

async function authHeaders(auth: ResolvedAuth): Promise<Record<string, string>> {
  switch (auth.kind) {
    case 'apiKey':
      return { Authorization: `Api-Key ${auth.apiKey}` };
    case 'token': {
      const token = typeof auth.token === 'function' ? await auth.token() : auth.token;
      if (typeof token !== 'string' || token.trim() === '') {
        throw new ServiceConfigError('The `auth.token` getter of the chat client returned no token');
      }
      return { 'X-Service-Auth-Token': token };
    }
    case 'none':
      return {};
  }
}

// ---------------------------------------------------------------------------------------------
// Small helpers


/** `{url}` + `path`, tolerating a trailing slash and keeping a query string or hash after the path. */
function endpoint(url: string, path: string): string {
  const cut = url.search(/[?#]/);
  const base = cut === -1 ? url : url.slice(0, cut);
  const rest = cut === -1 ? '' : url.slice(cut);
  return base.replace(/\/+$/, '') + path + rest;
}

function abortErrorFrom(signal: AbortSignal | undefined, what: string): ServiceAbortError {
  return new ServiceAbortError(`${what} was aborted`, { cause: signal?.reason });
}

/** Waits `ms`, or rejects with a {@link ServiceAbortError} as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortErrorFrom(signal, 'The chat stream'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortErrorFrom(signal, 'The chat stream'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential backoff with "equal jitter": never less than half the step, so retries stay spaced. */
function backoffDelay(attempt: number, options: Required<ResubscribeOptions>): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + Math.random() * (step / 2));
}

function resolveResubscribe(value: ChatClientOptions['resubscribe']): Required<ResubscribeOptions> | false {
  if (value === false) return false;
  const retries = value?.retries ?? DEFAULT_RESUBSCRIBE.retries;
  const baseDelayMs = value?.baseDelayMs ?? DEFAULT_RESUBSCRIBE.baseDelayMs;
  const maxDelayMs = value?.maxDelayMs ?? DEFAULT_RESUBSCRIBE.maxDelayMs;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new ServiceConfigError('createChatClient: `resubscribe.retries` must be an integer of 0 or more');
  }
  for (const [name, delay] of [['baseDelayMs', baseDelayMs], ['maxDelayMs', maxDelayMs]] as const) {
    if (!Number.isFinite(delay) || delay < 0) throw new ServiceConfigError(`createChatClient: \`resubscribe.${name}\` must be a number of 0 or more`);
  }
  return { retries, baseDelayMs, maxDelayMs };
}

function rpcErrorOf(line: RpcErrorLine): { code: number; message: string } {
  const { code, message } = line.error as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'number' ? code : Number.NaN,
    message: typeof message === 'string' ? message : 'Unauthorized',
  };
}

function isRpcError(value: unknown): value is RpcErrorLine {
  return isRecord(value) && typeof value.jsonrpc === 'string' && isRecord(value.error);
}

/** Reads an error body: the parsed JSON (or raw text) and the service's own message in it. */
async function readErrorBody(response: Response): Promise<{ body: unknown; serviceMessage: string | undefined }> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // An unreadable error body must not hide the status, which is the information that matters.
  }
  let body: unknown = text;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Not JSON (a proxy's HTML page, plain text): keep the text.
    }
  }
  let serviceMessage: string | undefined;
  if (isRpcError(body)) serviceMessage = rpcErrorOf(body).message;
  else if (isRecord(body) && typeof body.error === 'string') serviceMessage = body.error;
  else if (isRecord(body) && typeof body.message === 'string') serviceMessage = body.message;
  else if (typeof body === 'string' && body.trim() !== '' && body.length <= 500) serviceMessage = body.trim();
  return { body, serviceMessage };
}

function failureMessage(what: string, status: number, serviceMessage: string | undefined): string {
  return `${what} failed with HTTP ${status}${serviceMessage ? `: ${serviceMessage}` : ''}`;
}

/** Maps a non-2xx chat response to its typed error (7, service-behaviour 1). */
async function chatHttpError(response: Response): Promise<ServiceError> {
  const { status } = response;
  const { body, serviceMessage } = await readErrorBody(response);
  if (status === 401 || status === 403) {
    return new ServiceAuthError(failureMessage('Chat authentication', status, serviceMessage), {
      status,
      ...(isRpcError(body) ? { rpcError: rpcErrorOf(body) } : {}),
    });
  }
  if (status === 409 && (serviceMessage ?? '').includes(STREAMING_IN_PROGRESS)) return new StreamingInProgressError({ status });
  return new ServiceHttpError(failureMessage('Chat request', status, serviceMessage), { status, serviceMessage, body });
}

// ---------------------------------------------------------------------------------------------
// Replay dedupe

interface YieldedMessage {
  /** `content` and `thinking` as the consumer holds them after applying every yielded line. */
  content: string;
  thinking: string;
  /** Delta lines yielded since the last yielded replacement. */
  deltas: number;
  /** JSON text of every replacement (`isDelta` not `true`) yielded for this id. */
  replacements: Set<string>;
}

interface ReplayedMessage {
  content: string;
  thinking: string;
  deltas: number;
}

/** Decides, line by line, what of a replayed stream is new. Created by {@link createReplayFilter}. */
export interface ReplayFilter {
  /** Marks the start of a resent request's response: later lines are compared with what was yielded. */
  resume(): void;
  /**
   * Returns the line to yield (the line itself, a delta trimmed to its new text, or a replacement
   * when the replay disagrees with what was yielded), or `undefined` when the line is a replay of
   * what the consumer already has. Records what it returns as yielded.
   */
  accept<T extends StreamMessage | StateLine>(line: T): T | undefined;
}

/**
 * The dedupe of resubscription (service-behaviour 1: "the reply replays then continues, so dedupe
 * by `id`"). Exported for tests and for other transports; the chat client uses it internally.
 *
 * It keeps, per message id, the `content` and `thinking` the consumer holds (deltas appended,
 * replacements taking over) and, for the current response, the same text as the replay rebuilds
 * it. Keying on whole lines would not work: two deltas may carry the same text, and a replay may
 * cut the text into different chunks. So for each replayed line:
 *
 * - A delta whose text lies within what was yielded for its id is skipped; one that runs past it
 *   is trimmed to the new part; one whose rebuilt text disagrees with the yielded text becomes a
 *   replacement carrying the whole text as the server now has it. A delta without text (a flag
 *   change) is skipped while the replay has not sent more deltas for its id than were yielded.
 * - A replacement that equals (same JSON text) one already yielded for its id is skipped, whether
 *   it is the latest or an older version (yielding an older one would move the consumer back);
 *   any other replacement is yielded: replacing a message whole is idempotent for the consumer,
 *   and the deltas that follow apply on top of it.
 *
 * This covers a replay of the same lines from the start, a replay with deltas merged into larger
 * chunks, and the read-a-thread form (every message as a replacement, then the continuation).
 * Limits: a textless delta that the replay re-chunked differently may be skipped or repeated (its
 * flags are then corrected by the next line of the message); a replacement serialised with another
 * key order is yielded again (harmless, it is the same state); a replay that also resent the
 * deltas of earlier runs of the thread would repeat their text (no documented form does that).
 */
export function createReplayFilter(): ReplayFilter {
  const yielded = new Map<string, YieldedMessage>();
  const replayed = new Map<string, ReplayedMessage>();
  let resumed = false;

  function record(line: StreamMessage | StateLine): void {
    let entry = yielded.get(line.id);
    if (!entry) {
      entry = { content: '', thinking: '', deltas: 0, replacements: new Set() };
      yielded.set(line.id, entry);
    }
    const message = line as StreamMessage;
    if (line.isDelta === true) {
      entry.content += message.content ?? '';
      entry.thinking += message.thinking ?? '';
      entry.deltas += 1;
    } else {
      entry.content = message.content ?? '';
      entry.thinking = message.thinking ?? '';
      entry.deltas = 0;
      entry.replacements.add(JSON.stringify(line));
    }
  }

  /** The part of `next` beyond `known`; `''` when `next` does not reach past it; `undefined` when they disagree. */
  function beyond(known: string, next: string): string | undefined {
    if (next.startsWith(known)) return next.slice(known.length);
    if (known.startsWith(next)) return '';
    return undefined;
  }

  return {
    resume() {
      resumed = true;
      replayed.clear();
    },
    accept<T extends StreamMessage | StateLine>(line: T): T | undefined {
      if (!resumed) {
        record(line);
        return line;
      }
      const message = line as StreamMessage;
      const before = yielded.get(line.id);
      let replay = replayed.get(line.id);
      if (!replay) {
        replay = { content: '', thinking: '', deltas: 0 };
        replayed.set(line.id, replay);
      }
      if (line.isDelta !== true) {
        replay.content = message.content ?? '';
        replay.thinking = message.thinking ?? '';
        replay.deltas = 0;
        if (before?.replacements.has(JSON.stringify(line))) return undefined;
        record(line);
        return line;
      }
      replay.content += message.content ?? '';
      replay.thinking += message.thinking ?? '';
      replay.deltas += 1;
      const known = before ?? { content: '', thinking: '', deltas: 0 };
      const newContent = beyond(known.content, replay.content);
      const newThinking = beyond(known.thinking, replay.thinking);
      if (newContent === undefined || newThinking === undefined) {
        const replacement = { ...line, isDelta: false, content: replay.content } as T & StreamMessage;
        if (replay.thinking !== '' || message.thinking !== undefined) replacement.thinking = replay.thinking;
        record(replacement);
        return replacement;
      }
      const chunkContent = message.content ?? '';
      const chunkThinking = message.thinking ?? '';
      if (newContent === '' && newThinking === '') {
        const carriesText = chunkContent !== '' || chunkThinking !== '';
        if (carriesText || replay.deltas <= known.deltas) return undefined;
        record(line);
        return line;
      }
      if (newContent === chunkContent && newThinking === chunkThinking) {
        record(line);
        return line;
      }
      const trimmed = { ...line } as T & StreamMessage;
      if (message.content !== undefined) trimmed.content = newContent;
      if (message.thinking !== undefined) trimmed.thinking = newThinking;
      record(trimmed);
      return trimmed;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The client

/** Why a response stopped before the stream's end. */
type Interruption = { reason: 'connection_lost' | 'suspended'; cause: unknown };

/**
 * Creates a client of the Chat API (service-interface 4.4) for one `{ai_url}` or proxy route.
 * Throws a {@link ServiceConfigError} for options that cannot work (no `url`, both `apiKey` and
 * `token`, bad `resubscribe` numbers) and a {@link ServiceValidationError} for an invalid default
 * `sessionSettings` with an API key.
 *
 * @example
 * ```ts
 * const chat = createChatClient({ url: aiUrl, auth: { token: () => getJwt() } });
 * for await (const line of chat.stream({ input: 'Revenue by month?' })) store.apply(line);
 * ```
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  if (!isRecord(options)) throw new ServiceConfigError('createChatClient: options must be an object');
  const { url, onInvalidLine, onMalformedLine, onResubscribe } = options;
  if (typeof url !== 'string' || url.trim() === '') {
    throw new ServiceConfigError('createChatClient: `url` must be `{ai_url}` or your proxy route, a non-empty string');
  }
  const auth = resolveAuth(options.auth);
  const resubscribe = resolveResubscribe(options.resubscribe);
  const defaultSettings = auth.kind === 'apiKey' ? options.sessionSettings : undefined;
  if (defaultSettings !== undefined) {
    const problems = sessionSettingsProblems(defaultSettings);
    if (problems.length > 0) throw new ServiceValidationError(problems, { message: `createChatClient: invalid sessionSettings: ${problems.join('; ')}` });
  }
  if (auth.kind === 'apiKey' && !options.dangerouslyAllowBrowser && typeof document !== 'undefined') {
    // service-behaviour 1: an API key must never reach a browser. A warning, not a throw, because
    // test environments such as jsdom define `document` too.
    console.warn(
      '@service/react: createChatClient got an API key in what looks like a browser. Anyone can read it there. ' +
        'Use a deployment token (`auth: { token }`) or your own server route (no `auth`) instead.',
    );
  }
  const streamUrl = endpoint(url, CHAT_STREAM_PATH);
  const abortUrl = endpoint(url, CHAT_ABORT_PATH);

  function fetchImpl(): typeof fetch {
    const impl = options.fetch ?? globalThis.fetch;
    if (typeof impl !== 'function') {
      throw new ServiceConfigError('No `fetch` available: pass `fetch` to createChatClient');
    }
    return impl;
  }

  /** Headers of one request; the token getter runs here, once per HTTP request. */
  async function requestHeaders(): Promise<Record<string, string>> {
    return { 'Content-Type': 'application/json', Accept: ACCEPT, ...(await authHeaders(auth)) };
  }

  /**
   * Sends one POST. `fetch` is resolved before the call so that a missing `fetch` is a config
   * error, never mistaken for a dropped connection; it is called as a plain function because a
   * `fetch` stored on an object and called as a method throws "Illegal invocation" in browsers.
   */
  function post(target: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): () => Promise<Response> {
    const doFetch = fetchImpl();
    const init: RequestInit = { method: 'POST', headers, body: JSON.stringify(body), signal };
    return () => doFetch(target, init);
  }

  /** The body to send: messageId added, sessionSettings resolved for the credential, all checked. */
  function prepare(request: ChatRequest): ChatRequest {
    if (!isRecord(request)) throw new ServiceValidationError(['body: must be a JSON object']);
    const body: ChatRequest = { ...request };
    if (body.input !== undefined && body.messageId === undefined) body.messageId = createMessageId();
    if (auth.kind === 'apiKey') {
      const settings = request.sessionSettings ?? defaultSettings;
      if (settings === undefined) {
        throw new ServiceConfigError(
          'Chat with an API key needs sessionSettings (who is the chat user?): pass `sessionSettings` ' +
            'to createChatClient or to this request, with exactly one of externalId or internalId.',
          { code: 'session_settings_required' },
        );
      }
      body.sessionSettings = settings;
    } else {
      // With a token the service takes the user from the claims and ignores sessionSettings (5.5);
      // through a proxy route the host's server decides who the user is. Never send it.
      delete body.sessionSettings;
    }
    const result = validateChatRequest(body, { auth: auth.kind === 'apiKey' ? 'apiKey' : 'token' });
    if (!result.ok) throw new ServiceValidationError(result.problems);
    return body;
  }

  async function* stream(request: ChatRequest, streamOptions: ChatStreamOptions = {}): AsyncGenerator<ChatStreamLine, void, undefined> {
    const callerSignal = streamOptions.signal;
    if (callerSignal?.aborted) throw abortErrorFrom(callerSignal, 'The chat stream');
    let body = prepare(request);

    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const aborted = () => callerSignal?.aborted === true;

    const filter = createReplayFilter();
    let chatId = body.chatId;
    let cutoffYielded = false;
    let started = false;
    let failures = 0;

    try {
      for (let connection = 0; ; connection += 1) {
        if (connection > 0) filter.resume();
        let interruption: Interruption | undefined;
        let progressed = false;

        const send = post(streamUrl, await requestHeaders(), body, controller.signal);
        if (aborted()) throw abortErrorFrom(callerSignal, 'The chat stream');
        let response: Response | undefined;
        try {
          response = await send();
        } catch (error) {
          if (aborted()) throw abortErrorFrom(callerSignal, 'The chat stream');
          interruption = { reason: 'connection_lost', cause: error };
        }

        if (response && !response.ok) {
          if (!(started && TRANSIENT_STATUSES.has(response.status))) throw await chatHttpError(response);
          await response.body?.cancel().catch(() => {});
          interruption = { reason: 'connection_lost', cause: new ServiceHttpError(`Chat resubscription got HTTP ${response.status}`, { status: response.status }) };
        } else if (response) {
          if (!response.body) {
            throw new ServiceConfigError('This `fetch` returned no readable body: chat streaming needs `ReadableStream` response bodies');
          }
          started = true;
          const lines = readNdjson(response.body, { signal: controller.signal, ...(onMalformedLine ? { onMalformedLine } : {}) });
          let sawAborted = false;
          try {
            for (;;) {
              let next: IteratorResult<unknown>;
              try {
                next = await lines.next();
              } catch (error) {
                if (aborted()) throw abortErrorFrom(callerSignal, 'The chat stream');
                // After __aborted__ nothing more is owed; resending could even start the agent again.
                if (sawAborted) return;
                interruption = { reason: 'connection_lost', cause: error };
                break;
              }
              if (next.done) {
                if (sawAborted) return;
                interruption = { reason: 'connection_lost', cause: new Error('The chat stream ended before __usage__') };
                break;
              }
              const classified = classifyStreamLine(next.value);
              switch (classified.kind) {
                case 'invalid':
                  onInvalidLine?.(classified.value, classified.reason);
                  continue;
                case 'rpcError': {
                  const rpcError = rpcErrorOf(classified.line);
                  throw new ServiceAuthError(`Chat authentication failed: ${rpcError.message}`, { rpcError });
                }
                case 'error': {
                  const message = classified.line.error;
                  if (message.includes(STREAMING_IN_PROGRESS)) throw new StreamingInProgressError();
                  throw new ServiceStreamError(message);
                }
                case 'suspended': {
                  const line: SuspendedLine = classified.line;
                  if (line.retryable === false) {
                    throw new ServiceStreamError(line.error || 'The chat stream was suspended and cannot be resumed', { code: 'chat_suspended' });
                  }
                  interruption = { reason: 'suspended', cause: line };
                  break;
                }
                case 'cutoff': {
                  const cutoffChatId = classified.line.state.chatId;
                  if (chatId === undefined) chatId = cutoffChatId;
                  else if (connection > 0 && cutoffChatId !== chatId) {
                    throw new ConnectionLostError(
                      `The resent chat request joined thread ${cutoffChatId} instead of ${chatId}`,
                      { attempts: failures },
                    );
                  }
                  if (cutoffYielded) continue;
                  cutoffYielded = true;
                  progressed = true;
                  yield classified.line;
                  continue;
                }
                case 'usage':
                  yield classified.line;
                  return;
                case 'aborted':
                  sawAborted = true;
                  progressed = true;
                  yield classified.line;
                  continue;
                case 'message':
                case 'state': {
                  const accepted = filter.accept(classified.line);
                  if (accepted === undefined) continue;
                  progressed = true;
                  yield accepted;
                  continue;
                }
              }
              break; // only `suspended` gets here
            }
          } finally {
            await lines.return(undefined);
          }
        }

        // The stream stopped before its end: resend the same body, if that can work.
        const cause = interruption?.cause;
        if (progressed) failures = 0;
        if (chatId === undefined) {
          // Without the thread's id a resend would open a second thread and pay for a second agent
          // run if the first request did reach the service. With it, a resend is safe either way:
          // the same messageId joins the run if there is one (3) and starts it if there is none.
          throw new ConnectionLostError(
            started ? 'The chat stream broke off before __cutoff__ named its thread' : 'Could not reach the chat service',
            { attempts: failures, cause },
          );
        }
        const reasonCause = interruption?.reason === 'suspended'
          ? new ServiceStreamError((cause as SuspendedLine).error || 'The chat stream was suspended', { code: 'chat_suspended' })
          : cause;
        if (resubscribe === false) {
          throw new ConnectionLostError('The chat stream broke off and resubscribe is off', { attempts: 0, cause: reasonCause });
        }
        if (failures >= resubscribe.retries) {
          throw new ConnectionLostError(`The chat stream broke off and ${failures} resends in a row brought nothing new`, {
            attempts: failures,
            cause: reasonCause,
          });
        }
        failures += 1;
        const delayMs = backoffDelay(failures, resubscribe);
        onResubscribe?.({ attempt: failures, delayMs, reason: interruption?.reason ?? 'connection_lost', chatId, cause });
        await sleep(delayMs, controller.signal);
        if (aborted()) throw abortErrorFrom(callerSignal, 'The chat stream');
        // The same body, so the service resubscribes us to the same stream (3); the chatId of
        // __cutoff__ makes a request that opened a new thread join that thread.
        body = { ...body, chatId };
      }
    } finally {
      callerSignal?.removeEventListener('abort', onCallerAbort);
      // Leaving early (break, return, error) must not leave the connection open.
      controller.abort();
    }
  }

  async function abort(chatId: string, abortOptions: ChatAbortOptions = {}): Promise<void> {
    const { signal } = abortOptions;
    if (typeof chatId !== 'string' || chatId === '') {
      throw new ServiceValidationError(['chatId: must be the chat id of an active or recently completed chat']);
    }
    if (signal?.aborted) throw abortErrorFrom(signal, 'The chat abort request');
    const body: AbortRequest = { chatId };
    if (auth.kind === 'apiKey') {
      const settings = abortOptions.sessionSettings ?? defaultSettings;
      if (settings !== undefined) {
        const problems = sessionSettingsProblems(settings);
        if (problems.length > 0) throw new ServiceValidationError(problems);
        body.sessionSettings = settings;
      }
    }
    const send = post(abortUrl, await requestHeaders(), body, signal ?? new AbortController().signal);
    let response: Response;
    try {
      response = await send();
    } catch (error) {
      if (signal?.aborted) throw abortErrorFrom(signal, 'The chat abort request');
      throw new ConnectionLostError('Could not reach the chat service to abort the stream', { attempts: 0, cause: error });
    }
    if (response.ok) {
      // 204 has no body; a JSON-RPC error object in a 200 is the service's way of refusing the credential.
      const { body: answer } = await readErrorBody(response);
      if (isRpcError(answer)) {
        const rpcError = rpcErrorOf(answer);
        throw new ServiceAuthError(`Chat authentication failed: ${rpcError.message}`, { rpcError });
      }
      return;
    }
    const { body: errorBody, serviceMessage } = await readErrorBody(response);
    if (response.status === 401) {
      throw new ServiceAuthError(failureMessage('Chat abort authentication', 401, serviceMessage), {
        status: 401,
        ...(isRpcError(errorBody) ? { rpcError: rpcErrorOf(errorBody) } : {}),
      });
    }
    // 403 here means the caller does not own the thread (4.4), not a refused credential.
    throw new ServiceHttpError(failureMessage('Chat abort', response.status, serviceMessage), {
      status: response.status,
      serviceMessage,
      body: errorBody,
    });
  }

  return { stream, abort };
}
