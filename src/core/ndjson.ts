/**
 * Newline-delimited JSON over a byte stream: the wire format of chat streams and SQL results.
 *
 * @module
 */
import { abortError } from './http';

/** Options of {@link readNdjson}. */
export interface ReadNdjsonOptions {
  /** Cancels the underlying reader; the generator then throws a `ServiceAbortError`. */
  signal?: AbortSignal;
  /**
   * Called with each line that is not valid JSON, which is then skipped. A malformed line is
   * never fatal: one bad line must not cost the user the rest of an answer.
   */
  onMalformedLine?: (line: string, error: unknown) => void;
}

/** Marks a line that yields no value (blank or malformed); JSON never parses to a symbol. */
const SKIP: unique symbol = Symbol('skip');


/**
 * Yields one parsed JSON value per line of `body`, whatever the chunking: lines split across
 * chunks, multi-byte UTF-8 characters split across chunks, CRLF endings, blank lines and a last
 * line without a newline all read as a line-by-line parse would.
 *
 * Breaking out of the loop, or aborting `signal`, cancels the reader.
 */
export async function* readNdjson(body: ReadableStream<Uint8Array>, options: ReadNdjsonOptions = {}): AsyncGenerator<unknown> {
  const { signal, onMalformedLine } = options;
  if (signal?.aborted) {
    // Release the body so a fetch connection is not left open unread.
    await body.cancel(signal.reason).catch(() => {});
    throw abortError('Reading the stream', signal);
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  // Hot path: no per-line allocation beyond the line itself; blank lines are found by the
  // (rare) parse failure rather than by trimming every line.
  function parse(line: string): unknown {
    const text = line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      if (text.trim() !== '') onMalformedLine?.(text, error);
      return SKIP;
    }
  }

  // `pending` holds the start of a line split across chunks; newlines are searched for only in
  // newly decoded text, so a long line arriving in tiny chunks stays linear.
  let pending = '';
  try {
    for (;;) {
      const chunk = await reader.read();
      if (signal?.aborted) throw abortError('Reading the stream', signal);
      if (chunk.done) {
        pending += decoder.decode();
        break;
      }
      const text = decoder.decode(chunk.value, { stream: true });
      let newline = text.indexOf('\n');
      if (newline === -1) {
        pending += text;
        continue;
      }
      // The first line of a chunk completes `pending`; the rest lie wholly inside `text`.
      let value = parse(pending + text.slice(0, newline));
      pending = '';
      if (value !== SKIP) {
        yield value;
        if (signal?.aborted) throw abortError('Reading the stream', signal);
      }
      let start = newline + 1;
      while ((newline = text.indexOf('\n', start)) !== -1) {
        value = parse(text.slice(start, newline));
        if (value !== SKIP) {
          yield value;
          if (signal?.aborted) throw abortError('Reading the stream', signal);
        }
        start = newline + 1;
      }
      pending = text.slice(start);
    }
    // The last line may lack its newline; an empty one parses to SKIP.
    const last = parse(pending);
    if (last !== SKIP) yield last;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Cancelling a finished body does nothing; an unfinished one must not stay open.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
