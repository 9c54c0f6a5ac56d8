/**
 * A replay `fetch` for chat tests: answers the Chat API's two endpoints (protocol 4.4,
 * behaviour 1) from recorded NDJSON transcripts, with the chunking, pace and faults a test
 * chooses, so `createChatClient`, `useAgentChat` and `AgentChat` run their real code with no
 * service. Only Fetch-standard APIs: works in Node, jsdom, workers and real browsers.
 *
 * @module
 */
import {
  CHAT_ABORT_PATH,
  CHAT_STREAM_PATH,
  SENTINEL_IDS,
  type AbortedLine,
  type SuspendedLine,
} from '../core/protocol/chat';

/**
 * How an answer's text is cut into the chunks the body yields: `'lines'` (one NDJSON line a chunk,
 * the default), `'whole'` (one chunk), `'bytes'` (one byte a chunk: every multi-byte character
 * split), `'awkward'` (a cut inside every multi-byte UTF-8 character and right after every newline,
 * the worst places for a reader), a number (chunks of that many bytes), a list of numbers (chunk
 * sizes in bytes, taken in turn and repeated: `[7, 1, 13]` gives odd, shifting cuts), or a function
 * returning the chunks (strings or bytes) of a text.
 */
export type ReplayChunking =
  | 'lines'
  | 'whole'
  | 'bytes'
  | 'awkward'
  | number
  | readonly number[]
  | ((text: string) => readonly (string | Uint8Array)[]);

/**
 * Faults of an answer. Line counts include `__cutoff__`. Each applies to the first `times` stream
 * requests only (default 1), so the client's resubscription, which sends the same body again, gets
 * the whole transcript, as the service replays it.
 */
export interface ReplayFaults {
  /** After this many lines the body errors like a dropped connection (a `TypeError` from the reader). */
  dropAfterLines?: number;
  /** After this many lines the answer sends `__suspended__` (as the service does on a restart) and ends. */
  suspendAfterLines?: number;
  /**
   * After this many lines the body stays open until the request's signal aborts or the abort
   * endpoint is called for its thread (then `__aborted__` and `__usage__` end it): "while streaming",
   * without timers.
   */
  holdAfterLines?: number;
  /** Answers HTTP `status` with `{"error":"Injected fault: HTTP <status>"}` instead of the transcript. */
  status?: number;
  /** How many stream requests, counted from the first, get these faults. Default 1. */
  times?: number;
}

/** Options of {@link createReplayFetch}. Give `transcript` or `transcripts`. */
export interface ReplayFetchOptions {
  /** The NDJSON text answering every question, for example `TRANSCRIPTS['revenue-by-month']`. */
  transcript?: string;
  /**
   * One NDJSON text per question, in order: each request with a new `messageId` (or none: a read
   * of a thread) takes the next; a request repeating an earlier `messageId` (a resubscription)
   * replays that request's transcript. When none is left, requests get HTTP 500.
   */
  transcripts?: readonly string[];
  /** How answers are cut into chunks. Default `'lines'`. */
  chunking?: ReplayChunking;
  /** Wait before each chunk, in milliseconds. Default 0 (as fast as the reader pulls). */
  delayMs?: number;
  /**
   * Faults of the first answers. Default none. A list gives each stream request its own, in order
   * (`times` is then not read; requests past its end and `undefined` entries get none): a dropped
   * connection whose resubscription then hangs is `[{ dropAfterLines: 20 }, { holdAfterLines: 0 }]`.
   */
  faults?: ReplayFaults | readonly (ReplayFaults | undefined)[];
  /** Status of abort answers. Default 204; any other gets a JSON `{ error }` body, as the service sends. */
  abortStatus?: number;
  /**
   * Gives the user message's echo (the first line id like `1767225600000-message`) the request's
   * `messageId`, as the service does, so the thread store dedupes the optimistic user message; a
   * read of the thread (`chatId` alone) echoes the `messageId` its question was asked with.
   * Default true.
   */
  echoMessageId?: boolean;
}

/** One request the replay fetch received. */
export interface ReplayRequest {
  /** `stream` (`/chat/stream-chat-state`) or `abort` (`/chat/abort`). */
  endpoint: 'stream' | 'abort';
  /** The request URL. */
  url: string;
  /** The request headers (an API key or token header included: assert on them). */
  headers: Headers;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
}

/** A replay fetch and what it saw, returned by {@link createReplayFetch}. */
export interface ReplayFetch {
  /** A standard `fetch`: pass it as `fetch` to `createChatClient`, `useAgentChat` or `ServiceProvider`'s `chat`. */
  fetch: typeof fetch;
  /** Every request, in order. */
  readonly requests: readonly ReplayRequest[];
  /** The stream requests' bodies, in order. */
  readonly streams: readonly Record<string, unknown>[];
  /** The abort requests' bodies, in order. */
  readonly aborts: readonly Record<string, unknown>[];
}

const ECHO_ID = /"id":"\d{13,}-message"/;
const ZERO_USAGE = {
  models: [],
  llmCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheWriteTokens: 0,
  cacheReadTokens: 0,
  totalTokens: 0,
};

/** The NDJSON lines of `text`, each with its newline. */
function linesOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `${line}\n`);
}

/** Cuts `text` into chunks as `chunking` says. */
export function chunkText(text: string, chunking: ReplayChunking): Uint8Array[] {
  const encoder = new TextEncoder();
  if (typeof chunking === 'function') {
    return chunking(text).map((chunk) => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk));
  }
  if (chunking === 'lines') return linesOf(text).map((line) => encoder.encode(line));
  const bytes = encoder.encode(text);
  if (chunking === 'whole') return [bytes];
  const chunks: Uint8Array[] = [];
  if (chunking === 'awkward') {
    let start = 0;
    for (let index = 1; index < bytes.length; index++) {
      // A continuation byte (10xxxxxx) is inside a character; a byte after a newline starts a line.
      if ((bytes[index]! & 0xc0) === 0x80 || bytes[index - 1] === 0x0a) {
        chunks.push(bytes.subarray(start, index));
        start = index;
      }
    }
    chunks.push(bytes.subarray(start));
    return chunks;
  }
  const sizes = chunking === 'bytes' ? [1] : typeof chunking === 'number' ? [chunking] : chunking;
  if (sizes.length === 0) throw new TypeError('chunkText: give at least one chunk size');
  for (let start = 0, turn = 0; start < bytes.length; turn++) {
    const size = Math.max(1, Math.floor(sizes[turn % sizes.length]!));
    chunks.push(bytes.subarray(start, start + size));
    start += size;
  }
  return chunks;
}

/** The `chatId` of a transcript's `__cutoff__` line, if it has one. */
function cutoffChatId(text: string): string | undefined {
  const first = text.slice(0, text.indexOf('\n') >>> 0);
  try {
    const line = JSON.parse(first) as { id?: unknown; state?: { chatId?: unknown } };
    return line.id === SENTINEL_IDS.cutoff && typeof line.state?.chatId === 'string' ? line.state.chatId : undefined;
  } catch {
    return undefined;
  }
}

const json = (value: unknown): string => `${JSON.stringify(value)}\n`;

function isFaultList(faults: ReplayFetchOptions['faults']): faults is readonly (ReplayFaults | undefined)[] {
  return Array.isArray(faults);
}

/**
 * Creates a `fetch` that answers `POST .../chat/stream-chat-state` with a recorded NDJSON
 * transcript (status 200, `application/x-ndjson`) and `POST .../chat/abort` with 204, recording
 * every request. Any other URL is a 404, so a test never reaches the network by mistake.
 *
 * Faults look like the service's: a dropped connection is a body that errors, `__suspended__` is
 * the line the service sends on a restart, then the end of the body. A resubscription (the same
 * `messageId` again) replays the transcript from its start, as the service does: deduping by `id`
 * is the client's job. The request's `signal` is honoured: aborting it errors the body.
 * @throws {TypeError} when neither `transcript` nor `transcripts` is given.
 */
export function createReplayFetch(options: ReplayFetchOptions): ReplayFetch {
  const answers = options.transcripts ?? (options.transcript === undefined ? undefined : [options.transcript]);
  if (!answers || answers.length === 0) throw new TypeError('createReplayFetch: give `transcript` or `transcripts`');
  const { chunking = 'lines', delayMs = 0, faults, abortStatus = 204, echoMessageId = true } = options;
  const repeatOne = options.transcripts === undefined;

  const requests: ReplayRequest[] = [];
  const streams: Record<string, unknown>[] = [];
  const aborts: Record<string, unknown>[] = [];
  const byMessageId = new Map<string, string>();
  /** The question's `messageId` by thread, so that a read of the thread echoes it as the service does. */
  const askedIn = new Map<string, string>();
  let next = 0;
  /** Held answers, by thread id, released by the abort endpoint. */
  const held = new Map<string, Set<() => void>>();

  const pickTranscript = (messageId: unknown): string | undefined => {
    if (typeof messageId === 'string' && byMessageId.has(messageId)) return byMessageId.get(messageId);
    const text = repeatOne ? answers[0] : answers[next++];
    if (text !== undefined && typeof messageId === 'string') byMessageId.set(messageId, text);
    return text;
  };

  const answer = (body: Record<string, unknown>, signal: AbortSignal | null | undefined): Response => {
    const index = streams.length;
    streams.push(body);
    const fault = isFaultList(faults) ? faults[index] : faults && index < (faults.times ?? 1) ? faults : undefined;
    if (fault?.status !== undefined) {
      return Response.json({ error: `Injected fault: HTTP ${fault.status}` }, { status: fault.status });
    }
    let text = pickTranscript(body['messageId']);
    if (text === undefined) {
      return Response.json(
        { error: `createReplayFetch: no transcript left for stream request ${index + 1}` },
        { status: 500 },
      );
    }
    const chatId = (typeof body['chatId'] === 'string' ? body['chatId'] : undefined) ?? cutoffChatId(text);
    const messageId =
      typeof body['messageId'] === 'string'
        ? body['messageId']
        : chatId === undefined
          ? undefined
          : askedIn.get(chatId);
    if (typeof body['messageId'] === 'string' && chatId !== undefined) askedIn.set(chatId, body['messageId']);
    if (echoMessageId && messageId !== undefined) text = text.replace(ECHO_ID, `"id":"${messageId}"`);

    let lines = linesOf(text);
    let ending: 'close' | 'drop' | 'hold' = 'close';
    const cut = (count: number | undefined, how: typeof ending, tail: string[] = []): void => {
      if (count === undefined || count >= lines.length) return;
      lines = [...lines.slice(0, Math.max(0, count)), ...tail];
      ending = how;
    };
    if (fault?.suspendAfterLines !== undefined) {
      const suspended: SuspendedLine = {
        id: SENTINEL_IDS.suspended,
        type: 'suspend',
        code: 'chat_suspended',
        retryable: true,
        error: 'The service restarted: send the same request again to resume',
        ...(typeof body['messageId'] === 'string' ? { messageId: body['messageId'] } : {}),
      };
      cut(fault.suspendAfterLines, 'close', [json(suspended)]);
    } else if (fault?.dropAfterLines !== undefined) {
      cut(fault.dropAfterLines, 'drop');
    } else if (fault?.holdAfterLines !== undefined) {
      cut(fault.holdAfterLines, 'hold');
    }

    const queue = chunkText(lines.join(''), chunking);
    let index_ = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (signal?.aborted) return controller.error(signal.reason);
        // A copy: a reader may transfer or detach what it gets.
        if (index_ < queue.length) return controller.enqueue(queue[index_++]!.slice());
        if (ending === 'drop')
          return controller.error(new TypeError('network error: connection dropped (createReplayFetch fault)'));
        if (ending === 'hold') {
          const released = await new Promise<boolean>((resolve) => {
            const release = (): void => resolve(true);
            signal?.addEventListener('abort', () => resolve(false), { once: true });
            if (chatId !== undefined) {
              const set = held.get(chatId) ?? new Set();
              set.add(release);
              held.set(chatId, set);
            }
          });
          if (!released) return controller.error(signal?.reason);
          const aborted: AbortedLine = {
            id: SENTINEL_IDS.aborted,
            type: 'abort',
            code: 'chat_aborted',
            error: 'The chat was aborted by the user',
          };
          controller.enqueue(
            new TextEncoder().encode(
              json(aborted) + json({ id: SENTINEL_IDS.usage, type: 'usage', usage: ZERO_USAGE }),
            ),
          );
        }
        controller.close();
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
  };

  const replay = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // Not `new Request(input)`: a relative URL (a host proxy route such as `/api/service`) has no base in Node.
    const original = input instanceof Request ? input : undefined;
    const url = original ? original.url : String(input);
    const method = (init?.method ?? original?.method ?? 'GET').toUpperCase();
    const path = new URL(url, 'http://relative.invalid').pathname;
    const endpoint = path.endsWith(CHAT_STREAM_PATH) ? 'stream' : path.endsWith(CHAT_ABORT_PATH) ? 'abort' : undefined;
    if (!endpoint || method !== 'POST') {
      return Response.json({ error: `createReplayFetch: no route for ${method} ${url}` }, { status: 404 });
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(
        init?.body !== undefined ? await new Response(init.body).text() : await original!.text(),
      );
      body =
        parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : {};
    } catch {
      return Response.json({ error: 'Invalid JSON body' }, { status: 400 });
    }
    const headers = new Headers(init?.headers ?? original?.headers);
    requests.push({ endpoint, url, headers, body });
    if (endpoint === 'stream') return answer(body, init?.signal ?? original?.signal);
    aborts.push(body);
    if (abortStatus !== 204) return Response.json({ error: `abort refused (${abortStatus})` }, { status: abortStatus });
    const chatId = typeof body['chatId'] === 'string' ? body['chatId'] : undefined;
    for (const release of (chatId !== undefined && held.get(chatId)) || []) release();
    if (chatId !== undefined) held.delete(chatId);
    return new Response(null, { status: 204 });
  };

  return { fetch: replay as typeof fetch, requests, streams, aborts };
}
