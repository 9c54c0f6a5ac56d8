/**
 * Client of the data API (`{data_url}`, interface §4.5, §5; behaviour §3): SQL over `/v1/cubesql`
 * (streamed NDJSON), JSON queries over `/v1/load` (single and multi) and metadata from `/v1/meta`.
 *
 * - The JWT goes raw in `Authorization` (no `Bearer ` prefix), resolved anew for every request so a
 *   token function can refresh it.
 * - `{"error":"Continue wait"}` is not an error: the same request is repeated, a bounded number of
 *   times with a short growing pause, until data arrives.
 * - Failures are typed: {@link DataQueryError} (the query failed after a 200: an error line in
 *   the SQL stream or an error body), {@link ContinueWaitExhaustedError}, `ServiceHttpError` (400
 *   user error, 500 and other statuses), `ServiceAuthError` (401, 403: the token was refused; the
 *   status tells which), `ServiceAbortError`, `ConnectionLostError` (network failure or a stream cut
 *   short) and `ServiceStreamError` for a stream that breaks the protocol.
 *
 * @module
 */
import { ConnectionLostError, ServiceAbortError, ServiceError, ServiceStreamError } from './errors';
import {
  abortError,
  backoff,
  checkOptions,
  endpoint,
  followSignal,
  httpError,
  isAmount,
  isFilled,
  resolveToken,
  send,
  sleep,
  withDefaults,
} from './http';
import { readNdjson } from './ndjson';
import type { ServiceErrorCode } from './protocol/error-codes';
import {
  DATA_API_PATHS,
  classifyCubeSqlLine,
  isContinueWait,
  isDataErrorBody,
  isLoadResponse,
  isMetaResponse,
  isMultiLoadResponse,
  type CubeSqlColumn,
  type CubeSqlRequest,
  type CubeSqlRow,
  type LoadQuery,
  type LoadResponse,
  type MetaResponse,
  type MultiLoadResponse,
} from './protocol/data';

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/**
 * The data API accepted the request (HTTP 200) and then reported that the query failed: an
 * `{"error"}` line in the SQL stream, possibly after some rows, or an error body from `/v1/load`.
 * A {@link ServiceStreamError}, so code that handles stream errors handles this too.
 */
export class DataQueryError extends ServiceStreamError {
  static override readonly errorName: string = 'DataQueryError';
  /** The service's own message. */
  declare readonly serviceMessage: string;

  constructor(serviceMessage: string, options: { cause?: unknown } = {}) {
    super(`The data API query failed: ${serviceMessage}`, { code: 'query_error', cause: options.cause });
    this.serviceMessage = serviceMessage;
  }
}

/**
 * The data API kept answering `Continue wait` for every allowed attempt. The query may still be
 * running on the service; trying again later may well succeed (results are usually cached).
 */
export class ContinueWaitExhaustedError extends ServiceError {
  static override readonly errorName: string = 'ContinueWaitExhaustedError';
  /** Requests sent, all answered `Continue wait`. */
  declare readonly attempts: number;

  constructor(options: { attempts: number; cause?: unknown }) {
    super(
      `The data API answered "Continue wait" ${options.attempts} times: try again later or raise continueWait.maxAttempts`,
      { code: 'continue_wait_exhausted', cause: options.cause },
    );
    this.attempts = options.attempts;
  }
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/** How `Continue wait` answers are repeated. */
export interface ContinueWaitOptions {
  /**
   * Requests sent for one query, the first included, before giving up with
   * {@link ContinueWaitExhaustedError}. Default 30. The service itself holds each request for a
   * while before answering `Continue wait`, so this is usually minutes, not seconds.
   */
  maxAttempts?: number;
  /**
   * Pause before the first repeat, in milliseconds; it doubles on each repeat up to 8 times this
   * value, so a slow query is not hammered. Default 250.
   */
  delayMs?: number;
}

/** Defaults of {@link ContinueWaitOptions}. */
export const DEFAULT_CONTINUE_WAIT: Readonly<Required<ContinueWaitOptions>> = {
  maxAttempts: 30,
  delayMs: 250,
};

/** What a token function is told: `refresh` after the data API refused the token it gave last. */
export interface DataTokenRequest {
  /** True when the last token was refused (401, 403): a cached one must not be given again. */
  refresh: boolean;
}

/** A function giving the data API token for one request; see `DataClientOptions.token`. */
export type DataTokenFunction = (request: DataTokenRequest) => string | Promise<string>;

/** Options of {@link createDataClient}. */
export interface DataClientOptions {
  /**
   * `{data_url}`: the deployment's data API host plus its base path, without `/v1` (the client
   * appends `/v1/load`, `/v1/cubesql`, `/v1/meta`). May be relative (`/api/data`) in a browser
   * when your server proxies the data API.
   */
  url: string;
  /**
   * The JWT for the deployment, or a function returning it; the function is called for every
   * request (repeats after `Continue wait` included), so it can hand out a refreshed token. When
   * the data API refuses the token (401 or 403), the function is asked once more with
   * `{ refresh: true }` (a cached token is then stale: fetch a new one) and the request is sent
   * again; a second refusal is the `ServiceAuthError`. A string token is never retried.
   */
  token: string | DataTokenFunction;
  /** `fetch` to use. Default: the global `fetch`, looked up at call time. */
  fetch?: typeof fetch;
  /** How `Continue wait` answers are repeated. Default 30 attempts, 250 ms first pause (`DEFAULT_CONTINUE_WAIT`). */
  continueWait?: ContinueWaitOptions;
}

/** Options of one data API call. */
export interface DataRequestOptions {
  /** Cancels the call, including a pause between `Continue wait` repeats; it then rejects with `ServiceAbortError`. */
  signal?: AbortSignal;
}

/** A whole SQL result. */
export interface SqlResult {
  /** Columns, in the order of the cells of each row. */
  schema: CubeSqlColumn[];
  /** Rows; cells are strings (numbers too), `null` for SQL `NULL`. */
  rows: CubeSqlRow[];
  /** ISO time of the last refresh of the data, when the service sent it. */
  lastRefreshTime?: string;
}

/** A piece of a streamed SQL result: the schema first, then rows as they arrive. */
export type SqlChunk =
  | {
      /** The first chunk, exactly once: the result's columns. */
      type: 'schema';
      /** The columns, in order. */
      schema: CubeSqlColumn[];
      /** ISO time of the last refresh of the data; absent when the service sent none. */
      lastRefreshTime?: string;
    }
  | {
      /** A batch of rows, after the schema; a result may bring any number of these. */
      type: 'rows';
      /** The rows, one cell per column in schema order, as strings or `null`. */
      rows: CubeSqlRow[];
    };

/** What {@link createDataClient} returns. */
export interface DataClient {
  /** Runs SQL (`MEASURE(view.measure)` for measures) and collects the whole result. */
  sql(query: string | CubeSqlRequest, options?: DataRequestOptions): Promise<SqlResult>;
  /**
   * Runs SQL and yields the result as it streams: one `schema` chunk, then `rows` chunks. Leaving
   * the loop early closes the connection.
   */
  sqlChunks(query: string | CubeSqlRequest, options?: DataRequestOptions): AsyncIterable<SqlChunk>;
  /** Runs one JSON query. */
  load(query: LoadQuery, options?: DataRequestOptions): Promise<LoadResponse>;
  /** Runs several JSON queries in one request (`queryType: 'multi'`); results come in query order. */
  load(queries: readonly LoadQuery[], options?: DataRequestOptions): Promise<MultiLoadResponse>;
  /** Reads the data model's cubes and views. */
  meta(options?: DataRequestOptions): Promise<MetaResponse>;
}

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

/** The SQL stream broke the protocol (`invalid_stream`, `incomplete_stream`, `malformed_line`). */
function streamError(message: string, code: ServiceErrorCode): ServiceStreamError {
  return new ServiceStreamError(message, { code });
}

/** What the abort error of a call names: `The data API call was aborted`. */
const ABORTED = 'The data API call';

/**
 * Creates a client of the data API. Nothing is sent until a method is called.
 *
 * @throws ServiceConfigError when an option cannot work (no URL, no token, bad `continueWait`).
 *
 * @example
 * ```ts
 * const data = createDataClient({ url: dataUrl, token: () => getDeploymentToken() });
 * const { schema, rows } = await data.sql('SELECT status, MEASURE(orders.count) FROM orders GROUP BY 1');
 * ```
 */
export function createDataClient(options: DataClientOptions): DataClient {
  const { url, token } = options;
  const continueWait = withDefaults(DEFAULT_CONTINUE_WAIT, options.continueWait);
  checkOptions('createDataClient', [
    [isFilled(url), 'url: must be the data API URL ({data_url})'],
    [typeof token === 'function' || isFilled(token), 'token: must be the JWT or a function returning it'],
    [options.fetch === undefined || typeof options.fetch === 'function', 'fetch: must be a function'],
    [isAmount(continueWait.maxAttempts, 1, true), 'continueWait.maxAttempts: must be an integer of 1 or more'],
    [isAmount(continueWait.delayMs), 'continueWait.delayMs: must be a number of 0 or more'],
  ]);

  /**
   * Maps anything thrown during a call to the library's errors: an abort of the caller's signal
   * wins; our own errors pass; anything else (a `TypeError` from `fetch`, a socket cut mid-body) is
   * a lost connection.
   */
  function toServiceError(error: unknown, signal: AbortSignal | undefined): ServiceError {
    if (signal?.aborted) return ServiceAbortError.isInstance(error) ? error : abortError(ABORTED, signal);
    if (ServiceError.isInstance(error)) return error;
    return new ConnectionLostError(`Could not reach the data API at ${url}`, { attempts: 0, cause: error });
  }

  /**
   * Sends one request; resolves with a 2xx response, throws the typed error otherwise. A token
   * function whose token is refused is asked again, once, with `{ refresh: true }`.
   */
  async function request(path: string, body: unknown, signal: AbortSignal | undefined): Promise<Response> {
    for (let refresh = false; ; refresh = true) {
      // The JWT goes raw in `Authorization`, with no `Bearer ` prefix (5).
      const credential = typeof token === 'function' ? () => token({ refresh }) : token;
      const headers = { Authorization: await resolveToken(credential, 'createDataClient') };
      const response = await send(options.fetch, endpoint(url, path), headers, body, signal);
      if (response.ok) return response;
      // 401 and 403 both mean the token was refused (behaviour 3); the status tells which.
      const refused = response.status === 401 || response.status === 403;
      if (refused && typeof token === 'function' && !refresh) {
        // The refusal's body says nothing the retry needs; free the connection.
        await response.body?.cancel().catch(() => undefined);
        continue;
      }
      throw await httpError(response, `The data API call to ${path}`, [401, 403]);
    }
  }

  /** After `count` requests answered `Continue wait`: give up, or pause (delay, 2×, 4×, then 8× the delay). */
  async function waitBeforeRepeat(count: number, signal: AbortSignal | undefined): Promise<void> {
    if (count >= continueWait.maxAttempts) throw new ContinueWaitExhaustedError({ attempts: count });
    await sleep(backoff(count, continueWait.delayMs, continueWait.delayMs * 8), signal, ABORTED);
  }

  /** A JSON request whose answer may be `Continue wait`, an error body, or a result. */
  async function json<T>(
    path: string,
    body: unknown,
    isResult: (value: unknown) => value is T,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    if (signal?.aborted) throw abortError(ABORTED, signal);
    try {
      for (let count = 1; ; count++) {
        const response = await request(path, body, signal);
        const text = await response.text();
        // Text that is not JSON leaves `parsed` undefined, which no test below accepts.
        let parsed: unknown;
        let cause: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          cause = error;
        }
        if (!isContinueWait(parsed)) {
          if (isDataErrorBody(parsed)) throw new DataQueryError(parsed.error);
          if (isResult(parsed)) return parsed;
          throw new ServiceError(`The data API answered ${path} with an unexpected body`, {
            code: 'invalid_response',
            status: response.status,
            cause,
          });
        }
        await waitBeforeRepeat(count, signal);
      }
    } catch (error) {
      throw toServiceError(error, signal);
    }
  }

  async function* sqlChunks(
    query: string | CubeSqlRequest,
    callOptions: DataRequestOptions = {},
  ): AsyncGenerator<SqlChunk> {
    const outer = callOptions.signal;
    if (outer?.aborted) throw abortError(ABORTED, outer);
    const body: CubeSqlRequest = typeof query === 'string' ? { query } : query;
    // Our own signal, following the caller's, so that leaving the loop early also closes the
    // connection, whatever the fetch implementation does with an unread body.
    const { signal, release } = followSignal(outer);
    try {
      for (let count = 1; ; count++) {
        const response = await request(DATA_API_PATHS.cubesql, body, signal);
        if (!response.body) throw streamError('The SQL stream is empty', 'incomplete_stream');
        let started = false;
        let wait = false;
        const lines = readNdjson(response.body, {
          signal,
          // Skipping a malformed line would silently drop rows: a data result must be whole.
          onMalformedLine: (line) => {
            throw streamError(`The SQL stream sent a line that is not JSON: ${line.slice(0, 200)}`, 'malformed_line');
          },
        });
        for await (const raw of lines) {
          const line = classifyCubeSqlLine(raw);
          if (line.kind === 'continue-wait') {
            if (started) throw streamError('The SQL stream sent "Continue wait" after its schema', 'invalid_stream');
            wait = true;
            break;
          }
          if (line.kind === 'error') throw new DataQueryError(line.error);
          if (line.kind === 'schema') {
            if (started) throw streamError('The SQL stream sent a second schema', 'invalid_stream');
            started = true;
            // `lastRefreshTime` comes along only when the service sent it.
            const { kind: _kind, ...schema } = line;
            yield { type: 'schema', ...schema };
          } else if (line.kind === 'data') {
            if (!started) throw streamError('The SQL stream sent rows before its schema', 'invalid_stream');
            yield { type: 'rows', rows: line.rows };
          }
          // Lines of another kind are skipped: fields the service adds later must not break readers.
        }
        if (!wait) {
          if (!started) throw streamError('The SQL stream ended before its schema', 'incomplete_stream');
          return;
        }
        await waitBeforeRepeat(count, signal);
      }
    } catch (error) {
      throw toServiceError(error, outer);
    } finally {
      release();
    }
  }

  async function sql(query: string | CubeSqlRequest, callOptions: DataRequestOptions = {}): Promise<SqlResult> {
    // sqlChunks yields the schema first, or throws: the result is whole when the loop ends.
    let head: Omit<SqlResult, 'rows'> = { schema: [] };
    const rows: CubeSqlRow[] = [];
    for await (const chunk of sqlChunks(query, callOptions)) {
      // A loop rather than push(...rows): spreading a large chunk overflows the call stack.
      if (chunk.type === 'rows') for (const row of chunk.rows) rows.push(row);
      else {
        const { type: _type, ...schema } = chunk;
        head = schema;
      }
    }
    return { ...head, rows };
  }

  function load(query: LoadQuery, callOptions?: DataRequestOptions): Promise<LoadResponse>;
  function load(queries: readonly LoadQuery[], callOptions?: DataRequestOptions): Promise<MultiLoadResponse>;
  function load(
    query: LoadQuery | readonly LoadQuery[],
    callOptions: DataRequestOptions = {},
  ): Promise<LoadResponse | MultiLoadResponse> {
    return Array.isArray(query)
      ? json(DATA_API_PATHS.load, { query, queryType: 'multi' }, isMultiLoadResponse, callOptions.signal)
      : json(DATA_API_PATHS.load, { query }, isLoadResponse, callOptions.signal);
  }

  function meta(callOptions: DataRequestOptions = {}): Promise<MetaResponse> {
    return json(DATA_API_PATHS.meta, undefined, isMetaResponse, callOptions.signal);
  }

  return { sql, sqlChunks, load, meta };
}
