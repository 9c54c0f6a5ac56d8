/**
 * A fake chat transport for tests of the chat controller and UI: a `fetch` that answers the
 * stream endpoint with a recorded transcript (test/fixtures/transcripts, recorded from the live
 * emulator by scripts/record-chat-transcripts.ts) cut into awkward chunks, and the abort endpoint
 * with a chosen status. Works in Node, jsdom and real browsers (no Node API).
 */

/** How the transcript's bytes are cut into chunks. */
export type Chunking = 'whole' | 'bytes' | number[] | ((bytes: Uint8Array) => Uint8Array[]);

/** Cuts `bytes` into chunks: one, one byte each, or cycling through the given sizes. */
export function splitBytes(bytes: Uint8Array, chunking: Chunking): Uint8Array[] {
  if (typeof chunking === 'function') return chunking(bytes);
  if (chunking === 'whole') return [bytes];
  const sizes = chunking === 'bytes' ? [1] : chunking;
  const chunks: Uint8Array[] = [];
  for (let start = 0, index = 0; start < bytes.length; index += 1) {
    const size = Math.max(1, sizes[index % sizes.length]!);
    chunks.push(bytes.subarray(start, start + size));
    start += size;
  }
  return chunks;
}

/** Cuts right inside every multi-byte UTF-8 character and right after every newline: the worst places. */
export function splitAtAwkwardBytes(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (let index = 1; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    const insideCharacter = (byte & 0xc0) === 0x80;
    if (insideCharacter || bytes[index - 1] === 0x0a) {
      chunks.push(bytes.subarray(start, index));
      start = index;
    }
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** Options of {@link transcriptFetch}. */
export interface TranscriptFetchOptions {
  chunking?: Chunking;
  /** Status of abort answers; default 204. A JSON error body goes with any other status. */
  abortStatus?: number;
  /** Each chunk waits this long (ms) before it is enqueued; default 0 (as fast as the reader pulls). */
  chunkDelayMs?: number;
  /** Replaces the user message's echo id: the request's `messageId`, as the service does. Default true. */
  echoMessageId?: boolean;
  /**
   * Per request (0 for the first, 1 for the next...): after how many lines the answer stops short.
   * `hold` keeps the body open until the request is aborted ("while streaming"); `cut` breaks it
   * with a network error (a dropped connection).
   */
  stopAfter?: (request: number) => { lines: number; how: 'hold' | 'cut' } | undefined;
}

/** What a {@link transcriptFetch} saw. */
export interface TranscriptFetch {
  fetch: typeof fetch;
  /** Bodies of the requests to each endpoint, in order. */
  readonly streams: Record<string, unknown>[];
  readonly aborts: Record<string, unknown>[];
}

/** A `fetch` answering every stream request with `transcript` (NDJSON text), chunked as asked. */
export function transcriptFetch(transcript: string, options: TranscriptFetchOptions = {}): TranscriptFetch {
  const { chunking = 'whole', abortStatus = 204, chunkDelayMs = 0, echoMessageId = true, stopAfter } = options;
  const streams: Record<string, unknown>[] = [];
  const aborts: Record<string, unknown>[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    if (url.endsWith('/chat/abort')) {
      aborts.push(body);
      if (abortStatus === 204) return new Response(null, { status: 204 });
      return Response.json({ error: `abort refused (${abortStatus})` }, { status: abortStatus });
    }
    streams.push(body);
    let text = transcript;
    if (echoMessageId && typeof body['messageId'] === 'string') {
      text = text.replace(/"id":"\d{13,}-message"/, `"id":"${body['messageId']}"`);
    }
    const stop = stopAfter?.(streams.length - 1);
    if (stop) text = text.split('\n').slice(0, stop.lines).map((line) => `${line}\n`).join('');
    const chunks = splitBytes(new TextEncoder().encode(text), chunking);
    const signal = init?.signal;
    let index = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
        if (signal?.aborted) return controller.error(signal.reason);
        if (index < chunks.length) return controller.enqueue(chunks[index++]!.slice());
        if (stop?.how === 'cut') return controller.error(new TypeError('network error (cut by the test transport)'));
        if (stop?.how === 'hold') {
          // Open until the reader gives up.
          await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
          return controller.error(signal?.reason);
        }
        controller.close();
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
  };
  return { fetch: fake as typeof fetch, streams, aborts };
}

/**
 * A thread of `count` messages as a read of it streams (`__cutoff__`, each message whole,
 * `__usage__`): questions and answers taking turns, for long-thread stories and tests.
 */
export function longThreadTranscript(count: number, chatId = '00000000-0000-4000-8000-000000001000'): string {
  const lines: unknown[] = [{ id: '__cutoff__', role: 'assistant', state: { isStreaming: false, chatId }, sort: 0 }];
  for (let index = 0; index < count; index += 1) {
    const user = index % 2 === 0;
    lines.push({
      id: user ? `${1_767_225_600_000 + index}-message` : `answer-${index}`,
      role: user ? 'user' : 'assistant',
      content: user ? `Question ${index / 2 + 1}: revenue in week ${index % 52}?` : `Revenue in week ${(index - 1) % 52} was $${(index * 1234.5).toFixed(2)}, up ${index % 9}% on the week before.`,
      isDelta: false,
      ...(user ? {} : { graphPath: ['final'] }),
      sort: index + 1,
    });
  }
  lines.push({ id: '__usage__', type: 'usage', usage: { models: [], llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, totalTokens: 0 } });
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}
