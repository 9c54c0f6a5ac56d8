/**
 * One streamed chat answer: an NDJSON body written line by line as the run produces lines, a
 * real stream (each line leaves when it is written, not when the answer is complete).
 *
 * The body is pulled one line at a time (high-water mark 0), so the writer knows when the server
 * has taken a line: a `cut` then waits for the line to leave the socket before destroying the
 * connection, and the client sees exactly the lines written before it.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';

/** NDJSON content type of chat answers (behaviour 1 also allows `application/json`). */
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

/** Writes the lines of one response. */
export interface LineWriter {
  /** The streamed response to return from the handler. */
  readonly response: Response;
  /** Lines written so far. */
  readonly count: number;
  /** True once the response is over: ended, cut, or the client went away. */
  readonly closed: boolean;
  /** Queues one line; returns `false` (and drops it) once the response is over. */
  write(line: object): boolean;
  /** Ends the body normally after the queued lines. */
  end(): void;
  /** Destroys the connection after the queued lines have left: the client sees a broken body. */
  cut(): void;
  /** Calls `listener` once when the response is over, whatever the reason. */
  onClose(listener: () => void): void;
}

/** Options of {@link createLineWriter}. */
export interface LineWriterOptions {
  /**
   * The Node response under the Fetch one (`@hono/node-server` passes it as `c.env.outgoing`):
   * lets `cut()` destroy the socket itself. Without it (`app.request()`), the body errors instead.
   */
  outgoing?: ServerResponse;
}

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits (briefly) until the bytes handed to the socket have left, so a cut never eats a written line. */
async function drained(outgoing: ServerResponse): Promise<void> {
  for (let waited = 0; waited < 500; waited += 5) {
    const socket = outgoing.socket;
    if (outgoing.writableLength === 0 && (!socket || socket.writableLength === 0)) break;
    await sleep(5);
  }
  // The chunk is with the socket; give the loopback peer a moment to read it before the reset.
  await sleep(10);
}

/** A response whose body is the lines given to {@link LineWriter.write}. */
export function createLineWriter(options: LineWriterOptions = {}): LineWriter {
  const queue: Uint8Array[] = [];
  let ending: 'end' | 'cut' | undefined;
  let closed = false;
  let count = 0;
  let wake: (() => void) | undefined;
  const closeListeners: (() => void)[] = [];

  function close(): void {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners.splice(0)) listener();
  }
  function poke(): void {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  }

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (queue.length === 0 && ending === undefined && !closed)
          await new Promise<void>((resolve) => (wake = resolve));
        const chunk = queue.shift();
        if (chunk) {
          controller.enqueue(chunk);
          return;
        }
        if (closed) return;
        if (ending === 'end') {
          controller.close();
          close();
          return;
        }
        // A cut: the last line was taken; let it leave, then break the connection.
        if (options.outgoing) {
          await drained(options.outgoing);
          // The server cancels this body when the socket closes; an error here would be logged as a crash.
          options.outgoing.destroy();
        } else controller.error(new Error('Injected fault: connection cut'));
        close();
      },
      cancel() {
        // The client went away (or the socket was cut): stop writing, the run goes on.
        close();
        poke();
      },
    },
    { highWaterMark: 0 },
  );

  const response = new Response(body, {
    status: 200,
    headers: { 'content-type': NDJSON_CONTENT_TYPE, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
  });

  return {
    response,
    get count() {
      return count;
    },
    get closed() {
      return closed || ending !== undefined;
    },
    write(line) {
      if (closed || ending !== undefined) return false;
      queue.push(encoder.encode(`${JSON.stringify(line)}\n`));
      count += 1;
      poke();
      return true;
    },
    end() {
      if (closed || ending !== undefined) return;
      ending = 'end';
      poke();
    },
    cut() {
      if (closed || ending !== undefined) return;
      ending = 'cut';
      poke();
    },
    onClose(listener) {
      if (closed) listener();
      else closeListeners.push(listener);
    },
  };
}
