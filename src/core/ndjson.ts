/**
 * Newline-delimited JSON over a byte stream: the wire format of chat streams and SQL results.
 *
 * @module
 */
import { ServiceStreamError } from './errors';
import { abortError, checkOptions, isAmount, yieldToEventLoop } from './http';

/** Options of {@link readNdjson}. */
export interface ReadNdjsonOptions {
  /** Cancels the underlying reader; the generator then throws a `ServiceAbortError`. */
  signal?: AbortSignal;
  /**
   * Called with each line that is not valid JSON, which is then skipped. A malformed line is
   * never fatal: one bad line must not cost the user the rest of an answer.
   */
  onMalformedLine?: (line: string, error: unknown) => void;
  /**
   * Longest line accepted, in bytes of UTF-8 without its line ending. Default 16 MiB: far above
   * any real line (a 100-row SQL result is tens of KiB), far below what exhausts memory. A longer
   * line throws a `ServiceStreamError` with code `line_too_long` as soon as it passes the limit,
   * without waiting for its end, so at most about this much of one line is ever held.
   */
  maxLineBytes?: number;
  /**
   * Longest stretch, in milliseconds, that reading and the consumer's work on the values handed
   * out may take before the reader lets the event loop run (one task turn, see below). Default
   * {@link DEFAULT_NDJSON_SLICE_MS}. One network chunk can hold 100,000 lines; parsing them and
   * handing them to a store in one go would freeze a page for a second, so they are parsed in
   * batches and, once this much time has passed since the last turn, the reader waits for the
   * next task (`setImmediate` in Node, a `MessageChannel` message in browsers) before going on. `Infinity` never yields. The clock is read once per 16 values handed out.
   */
  sliceMs?: number;
}

/** Default of {@link ReadNdjsonOptions.maxLineBytes}. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Default of {@link ReadNdjsonOptions.sliceMs}: 10 ms of work between two turns of the event loop,
 * well under the 50 ms after which browsers count a task as long and input feels late.
 */
export const DEFAULT_NDJSON_SLICE_MS = 5;

/** Lines parsed in one go before they are handed out; a batch of tiny lines parses in well under a millisecond. */
const BATCH_LINES = 256;

/** Decode options of every chunk, one object for the whole stream. */
const STREAM = { stream: true };

/** Marks a blank line, which yields no value; JSON never parses to a symbol. */
const SKIP: unique symbol = Symbol('skip');

/** A line that is not JSON, kept with its error until its turn comes (JSON never parses to an instance). */
class Malformed {
  constructor(
    readonly line: string,
    readonly error: unknown,
  ) {}
}

/**
 * Yields one parsed JSON value per line of `body`, whatever the chunking: lines split across
 * chunks, multi-byte UTF-8 characters split across chunks, CRLF endings, blank lines and a last
 * line without a newline all read as a line-by-line parse would.
 *
 * Breaking out of the loop, or aborting `signal`, cancels the reader.
 */
export async function* readNdjson(
  body: ReadableStream<Uint8Array>,
  options: ReadNdjsonOptions = {},
): AsyncGenerator<unknown> {
  const { signal, onMalformedLine, maxLineBytes = MAX_LINE_BYTES, sliceMs = DEFAULT_NDJSON_SLICE_MS } = options;
  checkOptions('readNdjson', [
    [isAmount(maxLineBytes, 1, true), '`maxLineBytes` must be a whole number, 1 or more'],
    [sliceMs === Infinity || isAmount(sliceMs), '`sliceMs` must be a number of milliseconds, 0 or more, or Infinity'],
  ]);
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
      return text.trim() === '' ? SKIP : new Malformed(text, error);
    }
  }

  const tooLong = () => new ServiceStreamError(`A line is over ${maxLineBytes} bytes`, { code: 'line_too_long' });

  // `pending` holds the start of a line split across chunks; newlines are searched for only in
  // newly decoded text, so a long line arriving in tiny chunks stays linear. Its size is counted
  // in raw bytes (a newline byte never occurs inside a UTF-8 character), before it is kept.
  let pending = '';
  let pendingBytes = 0;
  // A chunk's complete lines are parsed in tight loops of up to BATCH_LINES, then handed out: one
  // suspension of this generator per line rather than one per line and step (a third faster on a
  // chat stream), and never more than a batch parsed ahead of a turn of the event loop.
  const values: unknown[] = [];
  let sliceStart = performance.now();
  let handed = 0;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (signal?.aborted) throw abortError('Reading the stream', signal);
      if (chunk.done) {
        pending += decoder.decode();
        break;
      }
      const bytes = chunk.value;
      const firstNewline = bytes.indexOf(10);
      if (firstNewline === -1) {
        // Counted before it is kept, so a line without end never holds more than the limit.
        if ((pendingBytes += bytes.length) > maxLineBytes) throw tooLong();
        pending += decoder.decode(bytes, STREAM);
        continue;
      }
      if (pendingBytes + firstNewline > maxLineBytes) throw tooLong();
      const text = decoder.decode(bytes, STREAM);
      let newline = text.indexOf('\n');
      // The first line of a chunk completes `pending`; the rest lie wholly inside `text`.
      values.push(parse(pending + text.slice(0, newline)));
      pending = '';
      // A line over the limit fails the stream, but only after the lines before it are handed out.
      let failure: ServiceStreamError | undefined;
      let start = newline + 1;
      for (;;) {
        while (values.length < BATCH_LINES && (newline = text.indexOf('\n', start)) !== -1) {
          const line = text.slice(start, newline);
          // A line of n UTF-16 units has at most 3n bytes: only a long one (rare) is encoded to count them.
          if (line.length * 3 > maxLineBytes && new TextEncoder().encode(line).length > maxLineBytes) {
            failure = tooLong();
            break;
          }
          values.push(parse(line));
          start = newline + 1;
        }
        for (const value of values) {
          if (value === SKIP) continue;
          if (value instanceof Malformed) {
            onMalformedLine?.(value.line, value.error);
            continue;
          }
          yield value;
          if (signal?.aborted) throw abortError('Reading the stream', signal);
          // The consumer's work on the values counts too: it ran while this generator waited.
          if ((++handed & 15) === 0 && performance.now() - sliceStart >= sliceMs) {
            await yieldToEventLoop();
            sliceStart = performance.now();
            if (signal?.aborted) throw abortError('Reading the stream', signal);
          }
        }
        values.length = 0;
        if (failure) throw failure;
        // The batch ended at the chunk's last newline, or full with more lines to come.
        if (newline === -1) break;
      }
      pending = text.slice(start);
      if ((pendingBytes = bytes.length - bytes.lastIndexOf(10) - 1) > maxLineBytes) throw tooLong();
    }
    // The last line may lack its newline; an empty one parses to SKIP.
    const last = parse(pending);
    if (last instanceof Malformed) onMalformedLine?.(last.line, last.error);
    else if (last !== SKIP) yield last;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Cancelling a finished body does nothing; an unfinished one must not stay open.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
