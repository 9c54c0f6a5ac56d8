/**
 * The Chat API client (protocol 2.8, 3, 4.4, 5, 7; behaviour 1): sends a chat
 * request, streams its NDJSON answer line by line, resubscribes when the connection drops, and
 * stops a running stream through the abort endpoint.
 *
 * Runs wherever `fetch` and `ReadableStream` exist (browsers, Node 20, workers): no Node API.
 *
 * @module
 */
import {
  ConnectionLostError,
  ServiceConfigError,
  ServiceStreamError,
  ServiceValidationError,
  StreamingInProgressError,
} from './errors';
import {
  abortError,
  backoff,
  checkOptions,
  endpoint,
  followSignal,
  httpError,
  isAmount,
  isFilled,
  readBody,
  resolveToken,
  send,
  sleep,
  withDefaults,
  type TokenSource,
} from './http';
import { chatLineError } from './chat-errors';
import { readNdjson } from './ndjson';
import {
  CHAT_ABORT_PATH,
  CHAT_STREAM_PATH,
  STREAMING_IN_PROGRESS,
  classifyStreamLine,
  createMessageId,
  rpcErrorOf,
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
 * How the client authenticates (protocol 5).
 *
 * - `{ apiKey }`: `Authorization: Api-Key <key>`; every chat request then needs `sessionSettings`
 *   (rule 4). Server-side only: an API key must never reach a browser (behaviour 1).
 * - `{ token }`: a deployment JWT sent as `X-Service-Auth-Token` (rule 5). A getter is called before
 *   every HTTP request, resends included, so a short-lived token can be refreshed in time.
 *   `sessionSettings` is never sent: the service reads the user from the token's claims. An
 *   error thrown by the getter ends the stream (or the abort) with that same error.
 */
export type ChatAuth =
  | {
      /** The API key, sent as `Authorization: Api-Key <key>`; server-side only. */
      apiKey: string;
    }
  | {
      /** The deployment JWT, or a getter called before every HTTP request so the token can be refreshed. */
      token: string | (() => string | Promise<string>);
    };

/**
 * Tuning of the automatic resubscription after a dropped connection. Resends of one run of drops
 * wait longer and longer whether or not each brought new lines, so a service that sends a line
 * and drops the connection again cannot make the client reconnect in a loop; the run ends when a
 * connection stays open {@link ResubscribeOptions.healthyMs}. Defaults: {@link DEFAULT_RESUBSCRIBE}.
 */
export interface ResubscribeOptions {
  /**
   * How many resends in a row may fail to bring anything new before the stream gives up with a
   * {@link ConnectionLostError}. A resend that yields at least one new line resets the count, so a
   * long answer survives several short outages. Default 3.
   */
  retries?: number;
  /**
   * Step of the first resend of a run, doubled for each further one up to `maxDelayMs`. Each wait
   * is drawn between half its step and the whole step ("equal jitter"), so clients dropped
   * together do not come back together. Default 500 ms.
   */
  baseDelayMs?: number;
  /** Largest step, so at most this long between two resends. Default 10,000 ms. */
  maxDelayMs?: number;
  /**
   * Longest run of resends, in milliseconds from the drop that started it: a resend that would
   * leave later is not made, and the stream fails with a {@link ConnectionLostError} instead.
   * Default 60,000 ms (at most 10 to 15 resends with the default steps).
   */
  budgetMs?: number;
  /**
   * How long a connection must stay open for its drop to start a new run (first step, fresh
   * budget) instead of continuing the current one. Default 10,000 ms.
   */
  healthyMs?: number;
}

/** What {@link ChatClientOptions.onResubscribe} is told before each resend. */
export interface ResubscribeEvent {
  /**
   * 1 for the first resend after a drop, counting up with each resend of the same run of drops
   * (whether or not they brought new lines); a connection that stayed open `healthyMs` starts a
   * new run.
   */
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
   * The credential (protocol 5). Omitted: neither auth header is sent and neither is
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
  /**
   * Longest stream line accepted, in bytes (default 16 MiB, as `readNdjson`). A longer line fails
   * the stream with a `ServiceStreamError` coded `line_too_long`; it is not resent, since the
   * resend would bring the same line.
   */
  maxLineBytes?: number;
  /** Called before each resend, for example to show "reconnecting" in a UI. */
  onResubscribe?: (event: ResubscribeEvent) => void;
  /**
   * After `__usage__` (the last line) the client goes on reading the body, in the background, until
   * it ends, which the service does right after that line: a response read to its end is a
   * completed request, whereas cancelling it would make the browser list every successful answer
   * as a cancelled one (DevTools shows them in red). A body still open after this many
   * milliseconds (a proxy that holds the connection) is cancelled. The iterator itself ends right
   * after `__usage__`, whatever this is. Default {@link DEFAULT_BODY_END_TIMEOUT_MS} (5 s).
   */
  bodyEndTimeoutMs?: number;
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
   * after a wait that doubles over a run of drops, new lines or not, for at most a minute (see
   * {@link ResubscribeOptions}), and what the service replays is not yielded a second time (see
   * {@link createReplayFilter} for how, and its limits). Only when the thread is known: without a
   * `chatId` (none in the request, no `__cutoff__` seen yet) a resend would open a second thread,
   * so the stream fails instead. An HTTP error answer is never resent, except 502/503/504 while
   * resubscribing (a restarting service behind a proxy).
   *
   * Throws (from the iterator): {@link ServiceConfigError} (no `sessionSettings` with an API key),
   * {@link ServiceValidationError} (invalid request), {@link ServiceHttpError} (400, 404, 5xx...),
   * {@link ServiceAuthError} (JSON-RPC error in the body, 401, 403), {@link StreamingInProgressError},
   * {@link ServiceStreamError} (an `{"error"}` line), {@link ConnectionLostError} (could not resume:
   * nothing new after `retries` resends, or the run of resends passed `budgetMs`),
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

/**
 * Defaults of {@link ResubscribeOptions}: waits of about 0.5, 1, 2, 4, 8 and then 10 s, for at
 * most 60 s from the first drop of a run; 3 fruitless resends in a row end it sooner.
 */
export const DEFAULT_RESUBSCRIBE: Readonly<Required<ResubscribeOptions>> = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  budgetMs: 60_000,
  healthyMs: 10_000,
};

/** Default of {@link ChatClientOptions.bodyEndTimeoutMs}: how long a body may stay open after `__usage__`. */
export const DEFAULT_BODY_END_TIMEOUT_MS = 5_000;

/** The `Accept` header of chat requests: the service serves NDJSON under any of these types. */
const ACCEPT = 'application/x-ndjson, application/json, text/plain';

/** Statuses a proxy answers while the service restarts; worth another try only while resubscribing. */
const TRANSIENT_STATUSES = [502, 503, 504];

/**
 * Reads what is left of a body after its last line, in the background, so that the request
 * completes rather than being cancelled; then, or after `timeoutMs` if the body is still open,
 * calls `release`, whose abort cancels whatever is left. Whatever comes after `__usage__` is not
 * part of the answer and is dropped.
 */
function finishBody(
  lines: AsyncGenerator<unknown>,
  release: (options?: { finished?: boolean }) => void,
  timeoutMs: number,
): void {
  const timer = setTimeout(release, timeoutMs);
  void (async () => {
    let finished = false;
    try {
      while (!(await lines.next()).done);
      finished = true;
    } catch {
      // A body that breaks after the last line changes nothing: the answer is complete.
    } finally {
      clearTimeout(timer);
      release({ finished });
      await lines.return(undefined).catch(() => {});
    }
  })();
}

/** Throws the typed error of a `sessionSettings` that breaks a rule of 2.8. */
function checkSessionSettings(settings: unknown): void {
  const problems = sessionSettingsProblems(settings);
  if (problems.length) throw new ServiceValidationError(problems);
}

/** The error of a `__suspended__` line: the service's own text, or `fallback`. */
function suspendedError(line: SuspendedLine, fallback: string): ServiceStreamError {
  return new ServiceStreamError(line.error || fallback, { code: 'chat_suspended' });
}

/** What one call of `stream` keeps across its connections. */
interface StreamRun {
  /** The body sent; after the first connection it names the thread. */
  body: ChatRequest;
  /** Follows the caller's signal; aborted when the stream is left early. */
  signal: AbortSignal;
  /** Stops following the caller's signal, aborting the request unless its body was read to its end. */
  release(options?: { finished?: boolean }): void;
  /** Throws once the caller's signal has aborted. */
  checkAborted(): void;
  /** Set when the end of the body is left to {@link finishBody}, which releases the signal then. */
  finishing: boolean;
  /** Set when the last response was read to its end, which needs no abort to close it. */
  finished: boolean;
  /** Drops what a resend replays. */
  filter: ReplayFilter;
  /** The thread, once known (from the request or the first `__cutoff__`). */
  chatId: string | undefined;
  cutoffYielded: boolean;
  /** Whether any connection got an answer. */
  started: boolean;
  /** Resends in a row whose connection brought nothing new. */
  failures: number;
  /** Resends of the current run of drops, and when its first drop happened. */
  attempt: number;
  runStart: number;
}

/** One connection of a stream: why it stopped before the stream's end, and what it brought. */
interface StreamConnection {
  /** 0 for the first request, counting up with each resend. */
  index: number;
  reason: ResubscribeEvent['reason'];
  /** What said the stream stopped: a network error, an early end, a `__suspended__` line. */
  cause: unknown;
  /** Whether it brought a line the caller had not seen. */
  progressed: boolean;
  /** When its answer arrived; `undefined` when there was none. */
  openedAt?: number;
}

// ---------------------------------------------------------------------------------------------
// Replay dedupe

/** `content` and `thinking` as a reader holds them after applying lines, and the deltas since the last replacement. */
interface TextState {
  content: string;
  thinking: string;
  deltas: number;
}

/** Applies a line's text to `state` as a consumer does: a delta appends, anything else replaces. */
function applyText(state: TextState, line: StreamMessage | StateLine): void {
  const { content, thinking } = line as StreamMessage;
  if (line.isDelta === true) {
    state.content += content ?? '';
    state.thinking += thinking ?? '';
    state.deltas += 1;
  } else {
    state.content = content ?? '';
    state.thinking = thinking ?? '';
    state.deltas = 0;
  }
}

/** The part of `next` beyond `known`; `''` when `next` does not reach past it; `undefined` when they disagree. */
function beyond(known: string, next: string): string | undefined {
  if (next.startsWith(known)) return next.slice(known.length);
  return known.startsWith(next) ? '' : undefined;
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
 * The dedupe of resubscription (behaviour 1: a resumed reply replays first, so it is deduped
 * by `id`). Exported for tests and for other transports; the chat client uses it internally.
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
  /** Per id: the text the consumer holds. */
  const yielded = new Map<string, TextState>();
  /** The JSON text of every replacement yielded; it holds the id, so one set serves every message. */
  const replacements = new Set<string>();
  /** Per id: the text as the current response's replay rebuilds it. */
  const replayed = new Map<string, TextState>();
  let resumed = false;

  function stateOf(states: Map<string, TextState>, id: string): TextState {
    let state = states.get(id);
    if (!state) states.set(id, (state = { content: '', thinking: '', deltas: 0 }));
    return state;
  }

  function record<T extends StreamMessage | StateLine>(line: T): T {
    applyText(stateOf(yielded, line.id), line);
    if (line.isDelta !== true) replacements.add(JSON.stringify(line));
    return line;
  }

  return {
    resume() {
      resumed = true;
      replayed.clear();
    },
    accept<T extends StreamMessage | StateLine>(line: T): T | undefined {
      if (!resumed) return record(line);
      const { content, thinking } = line as StreamMessage;
      const known = stateOf(yielded, line.id);
      const replay = stateOf(replayed, line.id);
      applyText(replay, line);
      if (line.isDelta !== true) return replacements.has(JSON.stringify(line)) ? undefined : record(line);

      const newContent = beyond(known.content, replay.content);
      const newThinking = beyond(known.thinking, replay.thinking);
      if (newContent === undefined || newThinking === undefined) {
        const replacement = { ...line, isDelta: false, content: replay.content } as T & StreamMessage;
        if (replay.thinking !== '' || thinking !== undefined) replacement.thinking = replay.thinking;
        return record(replacement);
      }
      if (newContent === '' && newThinking === '') {
        // Nothing new: skipped, unless it is a textless delta (a flag change) the consumer has not seen.
        return content || thinking || replay.deltas <= known.deltas ? undefined : record(line);
      }
      if (newContent === (content ?? '') && newThinking === (thinking ?? '')) return record(line);
      const trimmed = { ...line } as T & StreamMessage;
      if (content !== undefined) trimmed.content = newContent;
      if (thinking !== undefined) trimmed.thinking = newThinking;
      return record(trimmed);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The client

/**
 * Creates a client of the Chat API (protocol 4.4) for one `{ai_url}` or proxy route.
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
  const { url, auth, onInvalidLine, onMalformedLine, onResubscribe } = options;
  const credential: { apiKey?: unknown; token?: unknown } = isRecord(auth) ? auth : {};
  const hasKey = 'apiKey' in credential;
  const hasToken = 'token' in credential;
  const resubscribe = options.resubscribe === false ? false : withDefaults(DEFAULT_RESUBSCRIBE, options.resubscribe);
  const bodyEndTimeoutMs = options.bodyEndTimeoutMs ?? DEFAULT_BODY_END_TIMEOUT_MS;
  checkOptions('createChatClient', [
    [isFilled(url), 'url: must be `{ai_url}` or your proxy route'],
    // The service would silently prefer Authorization (5.6): refuse instead of sending two identities.
    [auth === undefined || hasKey !== hasToken, 'auth: must be { apiKey } or { token }, not both'],
    [!hasKey || isFilled(credential.apiKey), 'auth.apiKey: must be a non-empty string'],
    [
      !hasToken || typeof credential.token === 'function' || isFilled(credential.token),
      'auth.token: must be a non-empty string or a function',
    ],
    [!resubscribe || isAmount(resubscribe.retries, 0, true), 'resubscribe.retries: must be an integer of 0 or more'],
    [
      !resubscribe ||
        [resubscribe.baseDelayMs, resubscribe.maxDelayMs, resubscribe.budgetMs, resubscribe.healthyMs].every((ms) =>
          isAmount(ms),
        ),
      'resubscribe delays: must be numbers of 0 or more',
    ],
    [isAmount(bodyEndTimeoutMs), 'bodyEndTimeoutMs: must be a number of milliseconds, 0 or more'],
  ]);
  const defaultSettings = hasKey ? options.sessionSettings : undefined;
  if (defaultSettings !== undefined) checkSessionSettings(defaultSettings);
  if (hasKey && !options.dangerouslyAllowBrowser && typeof document !== 'undefined') {
    // behaviour 1: an API key must never reach a browser. A warning, not a throw, because
    // test environments such as jsdom define `document` too.
    console.warn('@service/react: an API key in a browser is public: use `auth: { token }` or a server route');
  }
  const streamUrl = endpoint(url, CHAT_STREAM_PATH);
  const abortUrl = endpoint(url, CHAT_ABORT_PATH);

  /** Headers of one request; the token getter runs here, once per HTTP request. */
  async function headers(): Promise<Record<string, string>> {
    const result: Record<string, string> = { Accept: ACCEPT };
    if (hasKey) result.Authorization = `Api-Key ${credential.apiKey as string}`;
    else if (hasToken) {
      result['X-Service-Auth-Token'] = await resolveToken(credential.token as TokenSource, 'createChatClient');
    }
    return result;
  }

  /** The body to send: messageId added, sessionSettings resolved for the credential, all checked. */
  function prepare(request: ChatRequest): ChatRequest {
    if (!isRecord(request)) throw new ServiceValidationError(['body: must be a JSON object']);
    const body: ChatRequest = { ...request };
    if (body.input !== undefined && body.messageId === undefined) body.messageId = createMessageId();
    if (hasKey) {
      const settings = request.sessionSettings ?? defaultSettings;
      if (settings === undefined) {
        // Given to createChatClient or to this request; worded as the rule of 2.8.
        throw new ServiceConfigError(
          'createChatClient: sessionSettings: required with an API key (who is the chat user?)',
          {
            code: 'session_settings_required',
          },
        );
      }
      body.sessionSettings = settings;
    } else {
      // With a token the service takes the user from the claims and ignores sessionSettings (5.5);
      // through a proxy route the host's server decides who the user is. Never send it.
      delete body.sessionSettings;
    }
    const result = validateChatRequest(body, { auth: hasKey ? 'apiKey' : 'token' });
    if (!result.ok) throw new ServiceValidationError(result.problems);
    return body;
  }

  /**
   * Opens one connection of a stream: the answer's body, or `undefined` when it got no usable
   * answer (no network, or a transient status while resubscribing), with `connection.cause` saying why.
   */
  async function connect(
    run: StreamRun,
    connection: StreamConnection,
  ): Promise<ReadableStream<Uint8Array> | undefined> {
    const requestHeaders = await headers();
    run.checkAborted();
    // A missing `fetch` throws from `send` itself, before `.catch`: a config error, never a lost connection.
    const response = await send(options.fetch, streamUrl, requestHeaders, run.body, run.signal).catch(
      (error: unknown) => {
        run.checkAborted();
        connection.cause = error;
      },
    );
    if (!response) return undefined;
    if (!response.ok) {
      const error = await httpError(response, 'Chat request', [401, 403]);
      // 3: a second input while the thread streams (409, the service's own words in the message).
      if (error.status === 409 && error.message.includes(STREAMING_IN_PROGRESS)) {
        throw new StreamingInProgressError({ status: 409, cause: error });
      }
      // A proxy's 502/503/504 while resubscribing is a restarting service: one more failed attempt.
      if (!(run.started && TRANSIENT_STATUSES.includes(response.status))) throw error;
      connection.cause = error;
      return undefined;
    }
    if (!response.body) throw new ServiceConfigError('This `fetch` gave no body to stream');
    run.started = true;
    connection.openedAt = Date.now();
    run.finished = false;
    return response.body;
  }

  /**
   * Yields the lines of one answer that the caller has not seen yet. Returns true when the stream
   * is over (`__usage__`, whose body is then read to its end by {@link finishBody}, or the end
   * after `__aborted__`), false when it stopped before its end (`connection.reason` and
   * `connection.cause` say why) and a resend may continue it.
   */
  async function* readAnswer(
    body: ReadableStream<Uint8Array>,
    run: StreamRun,
    connection: StreamConnection,
  ): AsyncGenerator<ChatStreamLine, boolean, undefined> {
    const lines = readNdjson(body, { signal: run.signal, onMalformedLine, maxLineBytes: options.maxLineBytes });
    let sawAborted = false;
    try {
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = await lines.next();
        } catch (error) {
          run.checkAborted();
          // After __aborted__ nothing more is owed; resending could even start the agent again.
          if (sawAborted) return true;
          // A line over the limit is no dropped connection: a resend would bring it again.
          if (ServiceStreamError.isInstance(error)) throw error;
          connection.cause = error;
          return false;
        }
        if (next.done) {
          run.finished = true;
          if (sawAborted) return true;
          connection.cause = new Error('The chat stream ended before __usage__');
          return false;
        }
        const classified = classifyStreamLine(next.value);
        switch (classified.kind) {
          case 'invalid':
            onInvalidLine?.(classified.value, classified.reason);
            continue;
          case 'rpcError':
          case 'error':
            throw chatLineError(classified.line);
          case 'suspended':
            if (classified.line.retryable === false) {
              throw suspendedError(classified.line, 'The chat stream was suspended and cannot be resumed');
            }
            connection.reason = 'suspended';
            connection.cause = classified.line;
            return false;
          case 'cutoff': {
            const cutoffChatId = classified.line.state.chatId;
            if (run.chatId === undefined) run.chatId = cutoffChatId;
            else if (connection.index > 0 && cutoffChatId !== run.chatId) {
              throw new ConnectionLostError(
                `The resent chat request joined thread ${cutoffChatId}, not ${run.chatId}`,
                {
                  attempts: run.failures,
                },
              );
            }
            if (run.cutoffYielded) continue;
            run.cutoffYielded = true;
            connection.progressed = true;
            yield classified.line;
            continue;
          }
          case 'usage':
            // Set first: a consumer that stops at this line ends the generator inside `yield`.
            run.finishing = true;
            yield classified.line;
            return true;
          case 'aborted':
            sawAborted = true;
            connection.progressed = true;
            yield classified.line;
            continue;
          case 'message':
          case 'state': {
            const accepted = run.filter.accept(classified.line);
            if (accepted === undefined) continue;
            connection.progressed = true;
            yield accepted;
            continue;
          }
        }
      }
    } finally {
      if (run.finishing) finishBody(lines, run.release, bodyEndTimeoutMs);
      else await lines.return(undefined);
    }
  }

  /**
   * After a connection stopped before the stream's end: throws when a resend cannot work or the
   * resubscribe budget is spent, else waits the backoff (telling `onResubscribe`) before the resend.
   */
  async function waitToResend(run: StreamRun, connection: StreamConnection): Promise<void> {
    const { reason, cause } = connection;
    if (connection.progressed) run.failures = 0;
    const { chatId, failures } = run;
    if (chatId === undefined) {
      // Without the thread's id a resend would open a second thread and pay for a second agent
      // run if the first request did reach the service. With it, a resend is safe either way:
      // the same messageId joins the run if there is one (3) and starts it if there is none.
      throw new ConnectionLostError(
        run.started ? 'The chat stream broke off before __cutoff__' : 'Could not reach the chat service',
        { attempts: failures, cause },
      );
    }
    const lost = (message: string, attempts: number) =>
      new ConnectionLostError(message, {
        attempts,
        cause: reason === 'suspended' ? suspendedError(cause as SuspendedLine, 'The chat stream was suspended') : cause,
      });
    if (resubscribe === false) throw lost('The chat stream broke off and resubscribe is off', 0);
    if (failures >= resubscribe.retries) {
      throw lost(`The chat stream broke off; ${failures} resends brought nothing new`, failures);
    }
    run.failures += 1;
    // The run goes on whatever this connection brought, unless it stayed open long enough.
    const now = Date.now();
    const { openedAt } = connection;
    if (run.attempt === 0 || (openedAt !== undefined && now - openedAt >= resubscribe.healthyMs)) {
      run.attempt = 0;
      run.runStart = now;
    }
    run.attempt += 1;
    const { attempt, runStart } = run;
    // "Equal jitter": never less than half the step, so retries stay spaced.
    const step = backoff(attempt, resubscribe.baseDelayMs, resubscribe.maxDelayMs);
    const delayMs = Math.round(step / 2 + Math.random() * (step / 2));
    if (now + delayMs - runStart > resubscribe.budgetMs) {
      throw lost(
        `The chat stream kept breaking off: no resend after ${attempt - 1} in ${now - runStart} ms ` +
          `(resubscribe.budgetMs is ${resubscribe.budgetMs})`,
        attempt - 1,
      );
    }
    onResubscribe?.({ attempt, delayMs, reason, chatId, cause });
    await sleep(delayMs, run.signal, 'The chat stream');
    run.checkAborted();
  }

  async function* stream(
    request: ChatRequest,
    streamOptions: ChatStreamOptions = {},
  ): AsyncGenerator<ChatStreamLine, void, undefined> {
    const callerSignal = streamOptions.signal;
    /** Throws once the caller's signal has aborted: checked after every wait, and before a failure is read as a lost connection. */
    const checkAborted = () => {
      if (callerSignal?.aborted) throw abortError('The chat stream', callerSignal);
    };
    checkAborted();
    const body = prepare(request);
    const { signal, release } = followSignal(callerSignal);
    const run: StreamRun = {
      body,
      signal,
      release,
      checkAborted,
      finishing: false,
      finished: false,
      filter: createReplayFilter(),
      chatId: body.chatId,
      cutoffYielded: false,
      started: false,
      failures: 0,
      attempt: 0,
      runStart: 0,
    };
    try {
      for (let index = 0; ; index += 1) {
        if (index > 0) run.filter.resume();
        const connection: StreamConnection = { index, reason: 'connection_lost', cause: undefined, progressed: false };
        const answer = await connect(run, connection);
        if (answer && (yield* readAnswer(answer, run, connection))) return;
        // The stream stopped before its end: resend the same body, if that can work.
        await waitToResend(run, connection);
        // The same body, so the service resubscribes us to the same stream (3); the chatId of
        // __cutoff__ makes a request that opened a new thread join that thread.
        run.body = { ...run.body, chatId: run.chatId };
      }
    } finally {
      // Leaving early (break, return, error) must not leave the connection open.
      if (!run.finishing) release({ finished: run.finished });
    }
  }

  async function abort(chatId: string, abortOptions: ChatAbortOptions = {}): Promise<void> {
    const { signal } = abortOptions;
    if (!isFilled(chatId)) {
      throw new ServiceValidationError(['chatId: must be a non-empty string']);
    }
    if (signal?.aborted) throw abortError('The chat abort request', signal);
    const body: AbortRequest = { chatId };
    const settings = hasKey ? (abortOptions.sessionSettings ?? defaultSettings) : undefined;
    if (settings !== undefined) {
      checkSessionSettings(settings);
      body.sessionSettings = settings;
    }
    // A missing `fetch` throws from `send` itself, before `.catch`: a config error, never a lost connection.
    const response = await send(options.fetch, abortUrl, await headers(), body, signal).catch((error: unknown) => {
      throw signal?.aborted
        ? abortError('The chat abort request', signal)
        : new ConnectionLostError('Could not reach the chat service', { attempts: 0, cause: error });
    });
    // 403 here means the caller does not own the thread (4.4), not a refused credential.
    if (!response.ok) throw await httpError(response, 'Chat abort', [401]);
    // 204 has no body; a JSON-RPC error object in a 200 is the service's way of refusing the credential.
    const answer = await readBody(response);
    if (rpcErrorOf(answer)) throw chatLineError(answer as RpcErrorLine);
  }

  return { stream, abort };
}
