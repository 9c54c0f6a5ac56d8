/**
 * The HTTP plumbing that the chat client and the data API client share, so that each rule has
 * one home: how options are checked, how a credential getter is called, how `fetch` is found and
 * called, how a path joins a base URL, how an error answer becomes a typed error, and how a wait
 * follows an `AbortSignal`.
 *
 * Internal: not exported from any entry of the package.
 *
 * @module
 */
import { ServiceAbortError, ServiceAuthError, ServiceConfigError, ServiceHttpError } from './errors';
import { rpcErrorOf } from './protocol/chat';
import { isRecord } from './protocol/shared';

/**
 * A credential: the value itself, or a function that returns it. The function is called before
 * every HTTP request (resends and repeats included), so a short-lived token can be refreshed.
 */
export type TokenSource = string | (() => string | Promise<string>);

/** True for a string with something other than white space in it. */
export function isFilled(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** True for a finite number of at least `min` (default 0); with `whole`, only for an integer. */
export function isAmount(value: unknown, min = 0, whole = false): boolean {
  return typeof value === 'number' && (whole ? Number.isInteger(value) : Number.isFinite(value)) && value >= min;
}

/**
 * Throws one {@link ServiceConfigError} that lists every failed check, so a caller fixes all of
 * them at once. Each check is `[passes, "option: what it must be"]`; `who` names the function.
 */
export function checkOptions(who: string, checks: readonly (readonly [boolean, string])[]): void {
  const problems = checks.filter(([passes]) => !passes).map(([, problem]) => problem);
  if (problems.length) throw new ServiceConfigError(`${who}: ${problems.join('; ')}`);
}

/** `given` over `defaults`, field by field: a field that is absent or `undefined` keeps its default. */
export function withDefaults<T extends object>(defaults: Readonly<Required<T>>, given: T | undefined): Required<T> {
  const set = Object.entries(given ?? {}).filter(([, value]) => value !== undefined);
  return { ...defaults, ...Object.fromEntries(set) } as Required<T>;
}

/** Resolves a {@link TokenSource} for one request; `who` names the client in the error. */
export async function resolveToken(token: TokenSource, who: string): Promise<string> {
  const value = typeof token === 'function' ? await token() : token;
  if (!isFilled(value)) throw new ServiceConfigError(`${who}: the token function returned no token`);
  return value;
}

/** `{url}` + `path`, tolerating a trailing slash and keeping a query string or hash after the path. */
export function endpoint(url: string, path: string): string {
  const cut = url.search(/[?#]|$/);
  return url.slice(0, cut).replace(/\/+$/, '') + path + url.slice(cut);
}

/**
 * Sends one request: a JSON `POST` when there is a `body`, a `GET` otherwise. `fetch` is looked
 * up here, at call time, and a missing one is a {@link ServiceConfigError}. It is called as a
 * plain function because a `fetch` stored on an object and called as a method throws "Illegal
 * invocation" in browsers. Rejects with whatever `fetch` rejects with (a network failure).
 */
export function send(
  fetchOption: typeof fetch | undefined,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const doFetch = fetchOption ?? globalThis.fetch;
  if (typeof doFetch !== 'function') throw new ServiceConfigError('No `fetch` here: pass the `fetch` option');
  return body === undefined
    ? doFetch(url, { headers, signal })
    : doFetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal,
      });
}

/** The body of an answer: parsed JSON, or the raw text when it is not JSON (`''` when unreadable). */
export async function readBody(response: Response): Promise<unknown> {
  // An unreadable error body must not hide the status, which is the information that matters.
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON (a proxy's HTML page, plain text): keep the text.
    return text;
  }
}

/**
 * The service's own words in an error body: `error` (a string, or the `message` of a JSON-RPC
 * error object), else `message`, else a short plain-text body.
 */
function serviceMessageOf(body: unknown): string | undefined {
  if (isRecord(body)) {
    return [rpcErrorOf(body)?.message, body.error, body.message].find((said) => typeof said === 'string') as
      string | undefined;
  }
  return isFilled(body) && body.length <= 500 ? body.trim() : undefined;
}

/**
 * The typed error of a non-2xx answer (its body read here): a {@link ServiceAuthError} when the
 * status is one of `authStatuses` (carrying the JSON-RPC error object when the body is one), a
 * {@link ServiceHttpError} with the body and the service's message otherwise. `what` starts the
 * message: `<what> failed with HTTP <status>: <service message>`.
 */
export async function httpError(
  response: Response,
  what: string,
  authStatuses: readonly number[],
): Promise<ServiceAuthError | ServiceHttpError> {
  const { status } = response;
  const body = await readBody(response);
  const serviceMessage = serviceMessageOf(body);
  const message = `${what} failed with HTTP ${status}${serviceMessage ? `: ${serviceMessage}` : ''}`;
  return authStatuses.includes(status)
    ? new ServiceAuthError(message, { status, rpcError: rpcErrorOf(body) })
    : new ServiceHttpError(message, { status, serviceMessage, body });
}

/** The error of an operation its caller cancelled: `<what> was aborted`, caused by the signal's reason. */
export function abortError(what: string, signal: AbortSignal | undefined): ServiceAbortError {
  return new ServiceAbortError(`${what} was aborted`, { cause: signal?.reason });
}

/**
 * A signal that aborts when `outer` (the caller's) does, and when `release()` is called. Requests
 * run on it so that leaving a stream early closes the connection whatever `fetch` does with an
 * unread body; `release()` also stops following `outer`. `release({ finished: true })`, after the
 * body was read to its end, only stops following: a browser may still be completing the request
 * after the last byte was handed over, and an abort then lists it as cancelled.
 */
export function followSignal(outer: AbortSignal | undefined): {
  signal: AbortSignal;
  release(options?: { finished?: boolean }): void;
} {
  const controller = new AbortController();
  const follow = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    release(options) {
      outer?.removeEventListener('abort', follow);
      if (!options?.finished) controller.abort();
    },
  };
}

/** Waits `ms`, or rejects with `abortError(what, signal)` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(what, signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Lets the event loop run (input, rendering, timers, other streams) before the caller goes on:
 * `setImmediate` where it exists (Node), else a `MessageChannel` message (browsers, workers): a
 * new task at once, without the 4 ms clamp of nested `setTimeout(0)` and without its throttling to
 * one a second in a background tab. Not `scheduler.yield()`: Chromium runs its continuations ahead
 * of rendering until a frame is 100 ms late, which painted 4 frames in 400 ms of ingest where a
 * message painted 10 in 200 ms. `setTimeout(0)` only where neither exists.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else if (typeof MessageChannel === 'function') {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    } else setTimeout(resolve, 0);
  });
}

/** Exponential backoff: `baseMs` doubled for each attempt after the first, capped at `maxMs`. */
export function backoff(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}
