/**
 * The one request path of the server client: every method of every group goes through
 * {@link createRequester}, which checks the options once and owns the auth header (interface §5),
 * retries, the per-try time limit, the typed errors and the cursor pages of §4.3/§4.6 (SCIM's
 * `startIndex`/`count` pages are the people group's, on the same {@link lazyList}). The groups
 * (`embedding.ts`, `workspace.ts`, `people.ts`, `platform.ts`, `tenant.ts`) only say which path,
 * which body, which check.
 *
 * Failures are typed: an input the protocol rejects is a `ServiceValidationError` and is never
 * sent; an HTTP error of the service is a `ServiceHttpError` carrying `status`, a stable `code`
 * (the body's `code`, the code of a known text of §7, or one from the status) and the service's
 * own message; a network failure that outlasts its retries is a `ConnectionLostError`; a
 * cancelled call is a `ServiceAbortError`.
 *
 * @module
 */
import {
  ConnectionLostError,
  ServiceConfigError,
  ServiceHttpError,
  ServiceValidationError,
  codeForStatus,
} from '../../core/errors';
import { checkOptions, httpError as readHttpError, isFilled } from '../../core/http';
import type { ServiceErrorCode } from '../../core/protocol/error-codes';
import { validateBody } from '../../core/protocol/management';
import type { ScimPageParams } from '../../core/protocol/scim';
import { isRecord, type ValidationResult } from '../../core/protocol/shared';
import {
  isListPage,
  nextPageCursor,
  pageItems,
  type CursorPageParams,
  type ListPage,
} from '../../core/protocol/workbook';
import {
  DEFAULT_TIMEOUT_MS,
  abortError,
  backoffDelay,
  checkServiceUrl,
  invalidResponse,
  joinUrl,
  readCapped,
  resolveRetry,
  sleep,
  timeoutCheck,
  timeoutError,
  upstreamController,
  type QueryValue,
  type RetryOptions,
} from '../transport';
import type * as v from 'valibot';

// ---------------------------------------------------------------------------------------------
// Public types

/** Options of `createServiceClient` and of each group's client (`createEmbeddingClient`, ...). */
export interface ServiceClientOptions {
  /**
   * `{base_url}`, the tenant host: `https://acme.example.com`. Only https (interface §5 rule 1);
   * plain http is accepted on loopback alone, for the emulator (`http://127.0.0.1:4010`).
   */
  baseUrl: string;
  /**
   * An admin API key from the account settings. Keep it on the server: never ship it to a browser
   * (behaviour §1). Sent as `Bearer` to the management and SCIM APIs and as `Api-Key` to the embed
   * APIs (§5).
   */
  apiKey: string;
  /** The `fetch` to use. Default: `globalThis.fetch`. For tests, tracing or a custom agent. */
  fetch?: typeof fetch;
  /**
   * Retrying of network failures and 5xx answers, for idempotent requests only (GET, PUT, DELETE,
   * and the idempotent session revoke): a POST that creates something (generate-session, a group)
   * or a PATCH is never sent twice. Default `{ retries: 2, baseDelayMs: 250, maxDelayMs: 4000 }`;
   * `false` turns it off. The same delays pace the conflict retries of `upsertWorkbookBySlug`.
   */
  retry?: RetryOptions | false;
  /**
   * Longest wait for one try of a call, in milliseconds: from sending until the answer is read
   * (its headers, then its body). Default 30,000. A service that accepts the connection and then
   * says nothing would otherwise hold the call, and a route handler waiting on it, for minutes.
   * Running out rejects with a `ServiceError` of code `upstream_timeout` (the route handlers answer
   * it with 504) and is not retried, so a call waits about this long at most per try.
   */
  timeoutMs?: number;
}

/** Options every call takes. */
export interface RequestOptions {
  /** Cancels the call (waits between retries included); it then rejects with a `ServiceAbortError`. */
  signal?: AbortSignal;
}

/** Query of a list: the cursor of §4.3/§4.6, filters the endpoint takes, and a signal. */
export interface ListParams extends CursorPageParams, RequestOptions {
  /**
   * More query parameters, for filters of the endpoint (§4.6 names some; the service may add more
   * within `v1`). `undefined` values are left out.
   */
  query?: Readonly<Record<string, QueryValue>>;
}

/** Query of a SCIM list (§4.6: `startIndex` and `count`), with a signal. */
export interface ScimListParams extends ScimPageParams, RequestOptions {
  /**
   * A SCIM filter (RFC 7644 §3.4.2.2), such as `userName eq "ada@acme.test"`. The service's
   * support of filters is not published; the emulator answers `eq` on `userName`, `displayName`
   * and `externalId`.
   */
  filter?: string;
}

/**
 * A list read lazily, page by page: cursor lists follow `pageInfo.endCursor` while `hasNextPage`
 * (the deprecated `data` is read where `items` is absent); SCIM lists follow `startIndex` until
 * `totalResults`. Iterate it with `for await` for the items, or use `pages()` for the pages as
 * answered. Each iteration starts again from the first page.
 */
export interface Paginated<T, Page = ListPage<T>> extends AsyncIterable<T> {
  /** The pages, as the service answered them. */
  pages(): AsyncIterable<Page>;
  /** Every item of every page, in order. Reads the whole list: prefer `for await` for long ones. */
  toArray(): Promise<T[]>;
}

/** Options of a raw call through `request`. */
export interface RawRequestOptions extends RequestOptions {
  /** The HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below `{base_url}`, starting with `/`: `/api/v1/deployments/`. */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: Readonly<Record<string, QueryValue>>;
  /** JSON body. */
  body?: unknown;
  /** Auth header (§5): `Bearer` for the management API (default), `Api-Key` for the embed APIs. */
  scheme?: 'Bearer' | 'Api-Key';
  /** Retry network failures and 5xx. Default: for GET, PUT and DELETE only. */
  idempotent?: boolean;
}

/** What every client made from {@link ServiceClientOptions} has, whatever its groups. */
export interface ServiceClientBase {
  /**
   * Any endpoint of `{base_url}` with this client's key, retries and typed errors, for what the
   * service adds within `v1`. Resolves to the parsed JSON body, or `undefined` for an empty one.
   */
  request<T = unknown>(options: RawRequestOptions): Promise<T>;
}

// ---------------------------------------------------------------------------------------------
// Internal

/** @internal One call of a method: what the request path needs. */
export interface Call {
  /** HTTP method. Default `GET`. */
  method?: RawRequestOptions['method'];
  path: string;
  /** Default `Bearer`. */
  scheme?: 'Bearer' | 'Api-Key';
  /** Names the operation in messages: `create user`. */
  what: string;
  query?: Readonly<Record<string, QueryValue>> | undefined;
  body?: unknown;
  signal?: AbortSignal | undefined;
  idempotent?: boolean | undefined;
  /** Gives a stable code to a known error text of the endpoint. */
  classify?: ((message: string) => ServiceErrorCode | undefined) | undefined;
  /** For a list: read the first page only (a sort without cursor paging). */
  firstPageOnly?: boolean;
}

/** @internal The one request path, as the groups use it. */
export interface Requester {
  /** Sends `call`; resolves to the JSON answer, `undefined` when empty. */
  json(call: Call): Promise<unknown>;
  /** Sends `call`; the answer's body is not read. */
  empty(call: Call): Promise<void>;
  /** Sends `call`; the answer must pass `check` (default: an object), else `invalid_response`. */
  record<T>(call: Call, check?: (value: unknown) => boolean, expected?: string): Promise<T>;
  /** A lazy cursor list; `describe` runs when iteration starts, so bad arguments reject the first `next()`. */
  list<T>(describe: () => Call, params?: ListParams): Paginated<T>;
  /** See {@link ServiceClientBase.request}. */
  request<T>(raw: RawRequestOptions): Promise<T>;
  /** The resolved retry delays (the upsert's conflict retries use them too). */
  readonly retry: Required<RetryOptions>;
}

/** Largest error body read from the service; the rest is never read (64 KiB). */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

const WHO = 'createServiceClient';

/** @internal The value of a check, or a `ServiceValidationError` naming every problem (nothing sent). */
export function valid<T>(result: ValidationResult<T>, what: string): T {
  if (result.ok) return result.value;
  throw new ServiceValidationError(result.problems, {
    message: `${what}: ${result.problems.join('; ')} (nothing was sent)`,
  });
}

/** @internal A body checked with a protocol schema (`validateBody`), or a `ServiceValidationError`. */
export function checked<T>(schema: v.GenericSchema<unknown, T>, input: unknown, what: string): T {
  return valid(validateBody(schema, input), what);
}

/** @internal A positive whole number (an id), or a `ServiceValidationError` naming `name`. */
export function id(value: unknown, name: string, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ServiceValidationError([`${name}: must be a positive whole number`], {
      message: `${what}: ${name} must be a positive whole number (got ${JSON.stringify(value)})`,
    });
  }
  return value;
}

/** @internal A non-empty string, or a `ServiceValidationError` naming `name`. */
export function nonEmpty(value: unknown, name: string, what: string): string {
  if (!isFilled(value)) {
    throw new ServiceValidationError([`${name}: must be a non-empty string`], {
      message: `${what}: ${name} must be a non-empty string`,
    });
  }
  return value;
}

/** @internal An answer that names itself: an object with a numeric or string `id`. */
export function hasId(value: unknown): boolean {
  return isRecord(value) && (typeof value['id'] === 'number' || typeof value['id'] === 'string');
}

/** @internal `/api/v1/deployments/{deploymentId}`, the id checked. */
export function deploymentPath(deploymentId: number, what: string, prefix = '/api/v1'): string {
  return `${prefix}/deployments/${id(deploymentId, 'deploymentId', what)}`;
}

/** @internal A check that only asks for an object: bodies whose fields the interface does not publish. */
export function anObject(input: unknown): ValidationResult<Record<string, unknown>> {
  return isRecord(input) ? { ok: true, value: input } : { ok: false, problems: ['body: must be an object'] };
}

/**
 * @internal The operations of a collection with numeric ids below `base` (`/api/v1/users/`):
 * list, create, get, update (PUT), delete; bodies checked by `checks` (default: an object).
 */
export function collection<T>(
  r: Requester,
  base: string,
  noun: string,
  checks: {
    create?: (input: unknown) => ValidationResult<unknown>;
    update?: (input: unknown) => ValidationResult<unknown>;
  } = {},
) {
  const one = (itemId: number, what: string) => `${base}${id(itemId, 'id', what)}`;
  const expected = `a ${noun}`;
  return {
    list: (params?: ListParams) => r.list<T>(() => ({ path: base, what: `list ${noun}s` }), params),
    create: async (input: unknown, options: RequestOptions = {}) => {
      const what = `create ${noun}`;
      const body = valid((checks.create ?? anObject)(input), what);
      return r.record<T>({ method: 'POST', path: base, what, body, signal: options.signal }, hasId, expected);
    },
    get: async (itemId: number, options: RequestOptions = {}) => {
      const what = `get ${noun}`;
      return r.record<T>({ path: one(itemId, what), what, signal: options.signal }, hasId, expected);
    },
    update: async (itemId: number, patch: unknown, options: RequestOptions = {}) => {
      const what = `update ${noun}`;
      const path = one(itemId, what);
      const body = valid((checks.update ?? anObject)(patch), what);
      return r.record<T>({ method: 'PUT', path, what, body, signal: options.signal }, hasId, expected);
    },
    remove: async (itemId: number, options: RequestOptions = {}) => {
      const what = `delete ${noun}`;
      await r.empty({ method: 'DELETE', path: one(itemId, what), what, signal: options.signal });
    },
  };
}

/** @internal A lazy list: walks the pages `pages` yields and hands out their items. */
export function lazyList<T, Page>(pages: () => AsyncGenerator<Page>, itemsOf: (page: Page) => T[]): Paginated<T, Page> {
  async function* items(): AsyncGenerator<T, void, undefined> {
    for await (const page of pages()) yield* itemsOf(page);
  }
  return {
    [Symbol.asyncIterator]: () => items(),
    pages,
    async toArray() {
      const all: T[] = [];
      for await (const item of items()) all.push(item);
      return all;
    },
  };
}

/**
 * @internal The request path of one tenant and key. Throws a `ServiceConfigError` for options
 * that cannot work.
 */
export function createRequester(options: ServiceClientOptions): Requester {
  if (!isRecord(options)) throw new ServiceConfigError(`${WHO}: pass an options object { baseUrl, apiKey }`);
  const { apiKey, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  // The key itself is never put in a message: messages end up in logs.
  checkOptions(WHO, [
    [isFilled(apiKey) && !/\s/.test(apiKey), '`apiKey` must be a non-empty API key without spaces'],
    [options.fetch === undefined || typeof options.fetch === 'function', '`fetch` must be a function'],
    timeoutCheck(timeoutMs, 'timeoutMs'),
  ]);
  const baseUrl = checkServiceUrl(options.baseUrl, 'baseUrl', WHO);
  const retry = resolveRetry(options.retry, WHO);

  function fetchImpl(): typeof fetch {
    const impl = options.fetch ?? globalThis.fetch;
    if (typeof impl !== 'function') throw new ServiceConfigError(`${WHO}: no \`fetch\` available: pass \`fetch\``);
    return impl;
  }

  function redact(text: string): string {
    return text.split(apiKey).join('[redacted]');
  }

  function redactDeep(value: unknown): unknown {
    if (typeof value === 'string') return redact(value);
    const json = JSON.stringify(value);
    return json !== undefined && json.includes(apiKey) ? (JSON.parse(redact(json)) as unknown) : value;
  }

  /**
   * The typed error of a non-2xx answer: core reads the body and the service's message; the
   * `code` is the body's own (`upsert_branch_changed`), else the endpoint's code for a known text
   * (§7), else one from the status.
   */
  async function httpError(response: Response, call: Call): Promise<ServiceHttpError> {
    // Only the start of the body is read: a huge or endless one is cancelled at the cap.
    const { text } = await readCapped(response.body, MAX_ERROR_BODY_BYTES).catch(() => ({ text: '' }));
    const read = (await readHttpError(
      new Response(text, { status: response.status }),
      call.what,
      [],
    )) as ServiceHttpError;
    const { status } = read;
    // Errors end up in logs: a service (or a proxy in between) that echoes the key loses it here.
    const serviceMessage = read.serviceMessage === undefined ? undefined : redact(read.serviceMessage);
    const body = redactDeep(read.body);
    const bodyCode = isRecord(body) && isFilled(body['code']) ? body['code'] : undefined;
    // The body's own code is kept as sent, listed or not: the service's word for its failure.
    const code =
      (bodyCode as ServiceErrorCode | undefined) ??
      (serviceMessage === undefined ? undefined : call.classify?.(serviceMessage)) ??
      codeForStatus(status);
    return new ServiceHttpError(redact(read.message), {
      status,
      code,
      ...(serviceMessage === undefined ? {} : { serviceMessage }),
      body,
    });
  }

  /**
   * Sends one call, retrying network failures and 5xx when idempotent, and resolves to what
   * `read` makes of the 2xx answer. Each try has `timeoutMs` for the answer and its reading.
   */
  async function send<T>(call: Call, read: (response: Response) => Promise<T>): Promise<T> {
    const { signal } = call;
    const method = call.method ?? 'GET';
    const doFetch = fetchImpl();
    const idempotent = call.idempotent ?? (method === 'GET' || method === 'PUT' || method === 'DELETE');
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `${call.scheme ?? 'Bearer'} ${apiKey}`,
    };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = {
      method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    };
    const url = joinUrl(baseUrl, call.path, call.query);
    for (let attempt = 1; ; attempt += 1) {
      if (signal?.aborted) throw abortError(call.what, signal);
      const canRetry = idempotent && attempt <= retry.retries;
      const upstream = upstreamController(signal);
      upstream.start(timeoutMs);
      /** The error to throw for `error`: the caller's abort and the time limit come first. */
      const settle = (error: unknown) =>
        signal?.aborted
          ? abortError(call.what, signal)
          : upstream.timedOut
            ? timeoutError(call.what, timeoutMs)
            : error;
      try {
        let response: Response;
        try {
          response = await doFetch(url, { ...init, signal: upstream.signal });
        } catch (error) {
          const settled = settle(error);
          if (settled !== error) throw settled;
          if (!canRetry) {
            throw new ConnectionLostError(`${call.what}: could not reach the service at ${baseUrl}`, {
              attempts: attempt,
              cause: error,
            });
          }
          upstream.release();
          await sleep(backoffDelay(attempt, retry), signal, call.what);
          continue;
        }
        if (response.ok) {
          try {
            return await read(response);
          } catch (error) {
            throw settle(error);
          }
        }
        if (response.status >= 500 && canRetry) {
          // Release the connection before waiting.
          await response.body?.cancel().catch(() => {});
          upstream.release();
          await sleep(backoffDelay(attempt, retry), signal, call.what);
          continue;
        }
        // An abort or a timeout while the error body was read leaves it cut short: that is the news.
        throw settle(await httpError(response, call));
      } finally {
        upstream.release();
      }
    }
  }

  function json(call: Call): Promise<unknown> {
    return send(call, async (response) => {
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw new ConnectionLostError(`${call.what}: the connection dropped while reading the answer`, {
          attempts: 1,
          cause: error,
        });
      }
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw invalidResponse(call.what, 'a body that is not JSON');
      }
    });
  }

  async function record<T>(call: Call, check: (value: unknown) => boolean = isRecord, expected = 'an object') {
    const value = await json(call);
    if (!check(value)) throw invalidResponse(call.what, `a body that is not ${expected}`);
    return value as T;
  }

  return {
    retry,
    json,
    record,

    async empty(call) {
      await send(call, async (response) => {
        await response.body?.cancel().catch(() => {});
      });
    },

    list<T>(describe: () => Call, params: ListParams = {}) {
      const { first, after, signal, query } = params;
      return lazyList<T, ListPage<T>>(async function* pages() {
        const call = describe();
        if (first !== undefined) id(first, 'first', call.what);
        const seen = new Set<string>();
        let cursor = after;
        for (;;) {
          const page = await json({ ...call, signal, query: { ...call.query, ...query, first, after: cursor } });
          if (!isListPage(page))
            throw invalidResponse(call.what, 'a body that is not a list page ({ items, pageInfo })');
          yield page as ListPage<T>;
          const next = nextPageCursor(page);
          if (next === undefined || call.firstPageOnly) return;
          // A cursor that comes back would loop forever: stop loudly instead.
          if (seen.has(next)) throw invalidResponse(call.what, `the cursor ${JSON.stringify(next)} a second time`);
          seen.add(next);
          cursor = next;
        }
      }, pageItems);
    },

    async request<T>(raw: RawRequestOptions): Promise<T> {
      if (!isRecord(raw) || typeof raw.path !== 'string' || !raw.path.startsWith('/')) {
        throw new ServiceConfigError(`${WHO}: request() needs a \`path\` below {base_url} starting with "/"`);
      }
      return (await json({
        method: raw.method,
        path: raw.path,
        scheme: raw.scheme ?? 'Bearer',
        what: `${raw.method} ${raw.path}`,
        query: raw.query,
        body: raw.body,
        signal: raw.signal,
        idempotent: raw.idempotent,
      })) as T;
    },
  };
}
