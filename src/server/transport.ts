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
import { ServiceConfigError, ServiceError } from '../core/errors';
import { backoff, checkOptions, isAmount, isFilled, withDefaults } from '../core/http';
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
export const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = Object.freeze({ retries: 2, baseDelayMs: 250, maxDelayMs: 4000 });

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
 * A JSON answer of a route handler. `Cache-Control: no-store` on every one: session ids are
 * single-use and errors are per viewer, so no cache (browser, CDN) may keep them.
 */
export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/** A JSON error answer of a route handler. */
export function errorAnswer(status: number, body: HandlerErrorBody, headers?: Record<string, string>): Response {
  return jsonAnswer(status, body, headers);
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
 * Reads a request body as text, refusing more than `limit` bytes without reading them all
 * (a `Content-Length` over the limit is refused before reading). `undefined` when too large.
 */
export async function readLimitedText(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
