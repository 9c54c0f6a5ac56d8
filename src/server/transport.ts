/**
 * Internal plumbing of the server helpers: service URLs, retry timing, and the bodies and JSON
 * answers of the route handlers. What core's `http.ts` already has (option checks, abortable
 * waits, backoff steps, error bodies) is used from there. Not exported from the entry.
 *
 * Fetch-standard only (no Node APIs), so the helpers run in Node, route handlers of any framework
 * and edge runtimes alike.
 *
 * @module
 * @internal
 */
import { tenantOrigin } from '../core/embed-url';
import { ServiceConfigError, ServiceError, ServiceValidationError } from '../core/errors';
import { backoff, checkOptions, isAmount, isFilled, withDefaults } from '../core/http';
import type { ServiceErrorCode } from '../core/protocol/error-codes';
import type { HandlerErrorBody } from '../core/protocol/host-routes';

export { abortError, sleep } from '../core/http';

// ---------------------------------------------------------------------------------------------
// URLs

/**
 * Checks a service URL (`{base_url}` or `{ai_url}`) and returns it without a trailing slash.
 * Interface §5 rule 1: only HTTPS; plain http is let through on loopback alone, where the emulator
 * runs. The rule's one home is `tenantOrigin` of core; its message is reworded for `name`.
 * @throws {ServiceConfigError} for anything else, naming the option.
 */
export function checkServiceUrl(url: unknown, name: string, who: string): string {
  if (!isFilled(url)) {
    throw new ServiceConfigError(`${who}: \`${name}\` must be the service's URL, a non-empty string`);
  }
  try {
    tenantOrigin(url);
  } catch (error) {
    throw new ServiceConfigError(
      `${who}: \`${name}\` ${JSON.stringify(url)} must be an absolute https URL with no credentials, query or ` +
        'fragment (http only on localhost, 127.0.0.0/8 or [::1], for the emulator)',
      { cause: error },
    );
  }
  return url.replace(/\/+$/, '');
}

/**
 * One path segment built from a caller's value (an embed tenant's name, a slug, a public id):
 * checked here, the one place for every such segment, then percent-encoded. `.` and `..` would
 * be resolved away by URL parsing (`/embed-tenants/../users` is `/users`) and `/` would add a
 * segment, so they, an empty value and control characters are refused before anything is sent.
 * @throws {ServiceValidationError} naming `name`.
 */
export function pathSegment(value: unknown, name: string, what: string): string {
  const problem = segmentProblem(value);
  if (problem !== undefined) {
    throw new ServiceValidationError([`${name}: ${problem}`], {
      message: `${what}: ${name} ${problem} (nothing was sent)`,
    });
  }
  return encodeURIComponent(value as string);
}

/** Why `value` cannot be a path segment (see {@link pathSegment}), or `undefined` when it can. */
export function segmentProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return 'must be a non-empty string';
  if (value.trim() === '.' || value.trim() === '..') return 'must not be "." or ".."';
  if (/[/\\]/.test(value)) return 'must not contain "/" or "\\"';
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'must not contain control characters';
  return undefined;
}

/** A query value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/** `base` + `path` + the defined entries of `query`, percent-encoded. */
export function joinUrl(base: string, path: string, query?: Readonly<Record<string, QueryValue>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return `${base}${path}${text === '' ? '' : `?${text}`}`;
}

// ---------------------------------------------------------------------------------------------
// Retry timing

/** How network failures and 5xx answers of idempotent requests are retried. */
export interface RetryOptions {
  /** Tries after the first one. Default 2; `0` turns retrying off. */
  retries?: number;
  /** Wait before the first retry, doubled for each further one (with jitter). Default 250 ms. */
  baseDelayMs?: number;
  /** Cap of one wait. Default 4,000 ms. */
  maxDelayMs?: number;
}

/** The defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = Object.freeze({
  retries: 2,
  baseDelayMs: 250,
  maxDelayMs: 4000,
});

/** Applies defaults (an `undefined` field keeps its default) and refuses values that cannot work. */
export function resolveRetry(value: RetryOptions | false | undefined, who: string): Required<RetryOptions> {
  if (value === false) return { ...DEFAULT_RETRY, retries: 0 };
  const resolved = withDefaults(DEFAULT_RETRY, value);
  checkOptions(who, [
    [isAmount(resolved.retries, 0, true), '`retry.retries` must be a whole number of 0 or more'],
    [isAmount(resolved.baseDelayMs), '`retry.baseDelayMs` must be a number of milliseconds, 0 or more'],
    [isAmount(resolved.maxDelayMs), '`retry.maxDelayMs` must be a number of milliseconds, 0 or more'],
  ]);
  return resolved;
}

/**
 * Wait before retry number `attempt` (1-based): core's capped exponential step with "equal
 * jitter" (half the step fixed, half random), so that servers retrying the same conflict at once
 * spread out, yet none retries at once.
 */
export function backoffDelay(attempt: number, retry: Required<RetryOptions>): number {
  const step = backoff(attempt, retry.baseDelayMs, retry.maxDelayMs);
  return Math.round(step / 2 + Math.random() * (step / 2));
}

// ---------------------------------------------------------------------------------------------
// Time limits

/** Default of `timeoutMs`: time to the upstream's answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Longest wait a timer can hold: `setTimeout` fires at once beyond it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The check of a `…TimeoutMs` option, for {@link checkOptions}. */
export function timeoutCheck(value: number, name: string): readonly [boolean, string] {
  return [
    isAmount(value, 1) && value <= MAX_TIMER_MS,
    `\`${name}\` must be a number of milliseconds from 1 to ${MAX_TIMER_MS}`,
  ];
}

/** The error of an upstream that did not answer in time (code `upstream_timeout`). */
export function timeoutError(what: string, timeoutMs: number): ServiceError {
  return new ServiceError(`${what}: the service did not answer within ${timeoutMs} ms`, { code: 'upstream_timeout' });
}

/**
 * An `AbortController` for one upstream request that aborts when `outer` does or when `start`ed
 * timers run out; `timedOut` says which. `release()` clears the timer and stops following `outer`.
 */
export function upstreamController(outer: AbortSignal | undefined): {
  signal: AbortSignal;
  abort(reason?: unknown): void;
  /** Starts (or restarts) the timer: the request is aborted unless `stop` comes within `ms`. */
  start(ms: number): void;
  stop(): void;
  readonly timedOut: boolean;
  release(): void;
} {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const follow = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', follow, { once: true });
  const clear = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    start(ms) {
      clear();
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error(`No answer within ${ms} ms`));
      }, ms);
    },
    stop: clear,
    get timedOut() {
      return timedOut;
    },
    release() {
      clear();
      outer?.removeEventListener('abort', follow);
    },
  };
}

/** A success answer whose body is not what the endpoint promises (code `invalid_response`). */
export function invalidResponse(what: string, detail: string): ServiceError {
  return new ServiceError(`${what}: the service answered with ${detail}`, { code: 'invalid_response' });
}

/**
 * True for a Fetch `Response`, also one made by another copy of the Fetch classes (a polyfill, a
 * framework's own) that `instanceof` would miss.
 */
export function isResponse(value: unknown): value is Response {
  if (value instanceof Response) return true;
  const candidate = value as Partial<Response> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.status === 'number' &&
    typeof candidate.headers === 'object' &&
    typeof candidate.arrayBuffer === 'function'
  );
}

// ---------------------------------------------------------------------------------------------
// Answers of the route handlers

/**
 * Headers of every answer of the route handlers. `no-store`: session ids are single-use and
 * answers are per viewer, so no cache (browser, CDN) may keep them. `nosniff`: a browser must
 * never guess a type and render an answer as HTML.
 */
export const SAFE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
});

/** A JSON answer of a route handler, with {@link SAFE_HEADERS}. */
export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers, ...SAFE_HEADERS },
  });
}

/** The error body of the library's own route answers: its code is one of the listed ones. */
export type RouteErrorBody = HandlerErrorBody & { code: ServiceErrorCode };

/** A JSON error answer of a route handler. */
export function errorAnswer(status: number, body: RouteErrorBody, headers?: Record<string, string>): Response {
  return jsonAnswer(status, body, headers);
}

/**
 * `response` with {@link SAFE_HEADERS} set, for answers the handlers did not make (a `Response`
 * from the host's resolver). The body is passed on as it is, not copied.
 */
export function withSafeHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(SAFE_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// ---------------------------------------------------------------------------------------------
// What a route accepts from a browser

/**
 * Checks `allowedOrigins` and returns them as origins (`https://host[:port]`).
 * @throws {ServiceConfigError} for a value that is not a list of origins.
 */
export function resolveAllowedOrigins(value: unknown, who: string): ReadonlySet<string> {
  if (value === undefined) return new Set();
  const problem = `${who}: \`allowedOrigins\` must be a list of origins such as "https://app.example.com" (scheme, host and port only)`;
  if (!Array.isArray(value)) throw new ServiceConfigError(problem);
  return new Set(
    value.map((item: unknown) => {
      let origin: string | undefined;
      try {
        origin = typeof item === 'string' ? new URL(item).origin : undefined;
      } catch {
        origin = undefined;
      }
      if (origin === undefined || origin === 'null' || origin !== String(item).replace(/\/$/, ''))
        throw new ServiceConfigError(problem);
      return origin;
    }),
  );
}

/**
 * A `Host` header that is a host: a name or IPv4 address, or an IPv6 one in brackets, with an
 * optional port. Anything else (spaces, `/`, `@`, `?`) would not make a URL, or would make one
 * with another path than the request's.
 */
const HOST = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/** True when `value` is a host with an optional port (see `HOST`), as `Host` and `X-Forwarded-Host` must be. */
export function isHost(value: string): boolean {
  const match = HOST.exec(value);
  return match !== null && Number(match[1] ?? 0) <= 65535;
}

/**
 * The origin the client used to reach this server: `X-Forwarded-Proto` + `X-Forwarded-Host` set by
 * a reverse proxy, else the `Host` header, else `request.url`. The URL alone is not enough: Next.js
 * route handlers report `localhost` in `request.url` whatever host the browser asked for, and behind
 * a proxy the server's own URL is not the page's. Of a list (`a, b`: several proxies), the first
 * value is the one the browser's side sent. `undefined` when the headers name no valid origin.
 */
export function clientOrigin(request: Request): string | undefined {
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim() || undefined;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return undefined;
  }
  const protocol = first('x-forwarded-proto')?.toLowerCase() ?? url.protocol.slice(0, -1);
  const host = first('x-forwarded-host') ?? first('host') ?? url.host;
  if (!/^https?$/.test(protocol) || !isHost(host)) return undefined;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a browser's request comes from a page the route serves: its own origin, or one of
 * `allowedOrigins`. The one rule of both route handlers:
 *
 * 1. `Sec-Fetch-Site: same-origin` passes: browsers set it and no page can (a `Sec-` header is
 *    forbidden to scripts), and it compares the page with the URL the browser itself used, so it
 *    holds behind any proxy and whatever `request.url` says.
 * 2. `Sec-Fetch-Site: cross-site` or `same-site` (a sibling subdomain is another origin) passes only
 *    with an `Origin` in `allowedOrigins`.
 * 3. Otherwise (older browsers, `none`, no header) the `Origin`, when there is one, must be in
 *    `allowedOrigins` or equal {@link clientOrigin}. `Origin: null` (sandboxed frames, privacy
 *    redirects) never does. No `Origin` and no `Sec-Fetch-Site` is not a browser's cross-site
 *    request (servers, scripts, a typed address) and passes.
 *
 * Trusting `X-Forwarded-*` here gives an attacker nothing: a page on another site cannot make a
 * browser send them. They are not CORS-safelisted, so a cross-site `fetch` that sets one is
 * preceded by a preflight (`OPTIONS`), which these routes never grant (no
 * `Access-Control-Allow-*` header: the browser stops there); an HTML form cannot set headers at
 * all; and such a browser request carries `Sec-Fetch-Site: cross-site`, refused by rule 2 before
 * the headers are read. A client that can set any header (curl, a server) has no viewer's cookies
 * to abuse.
 */
export function isAllowedOrigin(request: Request, allowedOrigins: ReadonlySet<string>): boolean {
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  if (site === 'same-origin') return true;
  if (origin !== null && allowedOrigins.has(origin)) return true;
  if (site === 'cross-site' || site === 'same-site') return false;
  return origin === null || (origin !== 'null' && origin === clientOrigin(request));
}

/**
 * The refusal of a request a browser was made to send by another site, or `undefined` to go on.
 *
 * - 403 `cross_site_request` unless {@link isAllowedOrigin}: a page elsewhere must not start a
 *   chat or mint a session with the viewer's cookies.
 * - 415 unless the body is declared `application/json` (unless `json: false`): an HTML form can only send
 *   `text/plain`, `application/x-www-form-urlencoded` or `multipart/form-data`, and `fetch` can
 *   send JSON to another origin only after a CORS preflight that these routes never answer.
 */
export function refuseForeignRequest(
  request: Request,
  allowedOrigins: ReadonlySet<string>,
  options: {
    /** Whether the body must be declared JSON (415 otherwise). Default true; false for a `GET`, which has none. */
    json?: boolean;
  } = {},
): Response | undefined {
  if (!isAllowedOrigin(request, allowedOrigins)) {
    return errorAnswer(403, { error: 'Cross-site requests are refused', code: 'cross_site_request' });
  }
  const type = request.headers.get('content-type') ?? '';
  if (options.json !== false && !/^application\/json\s*(;|$)/i.test(type)) {
    return errorAnswer(415, {
      error: 'Send the body as Content-Type: application/json',
      code: 'unsupported_media_type',
    });
  }
  return undefined;
}

/**
 * Default of `exposeErrorDetails`: on unless `NODE_ENV` is `production`. Read through `globalThis`
 * so runtimes without `process` (edge, workers) count as production and show nothing extra.
 */
export function defaultExposeErrorDetails(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env !== undefined && env['NODE_ENV'] !== 'production';
}

/** Reports a server-side failure of a route handler; the default logs it. */
export type HandlerErrorListener = (error: unknown, request: Request) => void;

/** Calls the listener without letting a throwing listener break the answer. */
export function report(listener: HandlerErrorListener | undefined, error: unknown, request: Request): void {
  try {
    if (listener) listener(error, request);
    else console.error('@service/react/server:', error);
  } catch {
    // A logging failure must not turn a clean error answer into a crash.
  }
}

/**
 * Reads at most `limit` bytes of `body` as text; when there is more, the rest is not read and the
 * body is cancelled (which closes an upstream connection), so a huge or endless body costs no
 * more than the limit. `cut` says whether there was more.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<{ text: string; cut: boolean }> {
  if (!body) return { text: '', cut: false };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), cut: false };
      if (size + value.byteLength > limit) {
        text += decoder.decode(value.subarray(0, limit - size));
        await reader.cancel().catch(() => {});
        return { text, cut: true };
      }
      size += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Reads a request body as text, refusing more than `limit` bytes without reading them all
 * (a `Content-Length` over the limit is refused before reading). `undefined` when too large.
 */
export async function readLimitedText(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return undefined;
  const { text, cut } = await readCapped(request.body, limit);
  return cut ? undefined : text;
}

// ---------------------------------------------------------------------------------------------
// The API key in answers

const encoder = new TextEncoder();
const NOTHING = new Uint8Array(0);

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/**
 * Replaces every copy of `secret` in a byte stream with `[redacted]`, chunk by chunk, wherever the
 * chunks are cut. Only the end of a chunk that could begin a copy (a prefix of `secret`) is held
 * back until the next chunk; a line's end never is, since a key holds no white space. A chunk
 * with no copy and nothing held is returned as the same object: no copy, no decoding.
 */
export function createKeyScrubber(secret: string): { push(chunk: Uint8Array): Uint8Array; end(): Uint8Array } {
  const key = encoder.encode(secret);
  const replacement = encoder.encode('[redacted]');
  const first = key[0]!;
  let held = NOTHING;
  /** True when `bytes` from `at` on match the key, for as many bytes as both have. */
  const matchesAt = (bytes: Uint8Array, at: number): boolean => {
    const length = Math.min(key.length, bytes.length - at);
    for (let index = 1; index < length; index++) if (bytes[at + index] !== key[index]) return false;
    return true;
  };
  return {
    push(chunk) {
      const bytes = held.length === 0 ? chunk : concat([held, chunk]);
      const parts: Uint8Array[] = [];
      let start = 0;
      let keep = bytes.length;
      for (let at = bytes.indexOf(first); at !== -1; at = bytes.indexOf(first, at + 1)) {
        if (!matchesAt(bytes, at)) continue;
        if (at + key.length > bytes.length) {
          // The chunk ends inside what may be a copy: hold it until the next one says.
          keep = at;
          break;
        }
        parts.push(bytes.subarray(start, at), replacement);
        start = at + key.length;
        at = start - 1;
      }
      held = keep === bytes.length ? NOTHING : bytes.slice(keep);
      if (parts.length === 0) return start === 0 && keep === bytes.length ? bytes : bytes.subarray(start, keep);
      parts.push(bytes.subarray(start, keep));
      return concat(parts);
    },
    end() {
      const rest = held;
      held = NOTHING;
      return rest;
    },
  };
}
