/**
 * Query options for TanStack Query over the data API: `dataQueryOptions` (a JSON query,
 * `/v1/load`), `sqlQueryOptions` (`/v1/cubesql`) and `metaQueryOptions` (`/v1/meta`).
 *
 * They return plain objects (`queryKey`, `queryFn`, `staleTime`, `retry`) that TanStack's
 * `useQuery`, `useSuspenseQuery`, `queryClient.prefetchQuery` and `fetchQuery` take as they are,
 * as `queryOptions` of `@tanstack/react-query` would build them. No TanStack code is imported:
 * this entry stays framework-free, and a React Server Component or a server loader can call them
 * (the `@service/react` entry is a client boundary). TanStack does the caching, deduplication,
 * cancelling and hydration; the data client does the HTTP, `Continue wait`, token refresh and
 * typed errors.
 *
 * Keys: `['@service/react', 'data', kind, url, query]`. They hold the data API's URL and the
 * query as JSON, never the token or a function, so the key a server prefetched under is the one
 * the browser asks for, and `dehydrate` can send it.
 *
 * @module
 */
import { createDataClient, type DataClientOptions } from './data-client';
import { ConnectionLostError, ServiceConfigError, ServiceHttpError } from './errors';
import type {
  CubeSqlColumn,
  CubeSqlRequest,
  CubeSqlRow,
  LoadAnnotation,
  LoadQuery,
  MetaResponse,
} from './protocol/data';

/**
 * Where the data API is and how to authenticate to it: the data client's options. `ServiceProvider`
 * takes them as `data`; the hooks and components use the provider's unless given their own.
 */
export type DataSettings = Pick<DataClientOptions, 'url' | 'token' | 'fetch' | 'continueWait'>;

/** The first two items of every data query key: `queryClient.invalidateQueries({ queryKey: DATA_QUERY_KEY })`. */
export const DATA_QUERY_KEY = ['@service/react', 'data'] as const;

/**
 * How long a data query's result counts as fresh, by default: one minute. Long enough that a
 * page hydrated with prefetched results does not ask again at once (TanStack refetches stale
 * results on mount), short enough that a dashboard left open catches up. Override it per query
 * (`staleTime`) like any TanStack option.
 */
export const DEFAULT_DATA_STALE_TIME_MS = 60_000;

/**
 * Retries of a data query after a failure that may pass (the network, a 5xx, a 429), by default.
 * A refused token (asked again once already), a query the service rejects and an abort are not
 * retried: trying again cannot help them.
 */
export const DEFAULT_DATA_RETRIES = 2;

/** `T` with every array and object inside it read-only. */
export type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [Key in keyof T]: DeepReadonly<T[Key]> }
    : T;

/**
 * A JSON query as the query options and hooks take it: a `LoadQuery`, read-only, so that a query
 * declared `as const` (or written inline) keeps its members' literal names for typed rows.
 */
export type DataQuery = DeepReadonly<LoadQuery>;

/** A cell of a JSON query's row: the data API sends strings (numbers too); `null` for `NULL`. */
export type LoadValue = string | number | boolean | null;

/**
 * The member names a JSON query's rows have: its measures, dimensions, and each time dimension
 * with a granularity, as `view.dimension` and `view.dimension.granularity`.
 */
export type MembersOf<Q extends DataQuery> =
  | (Q['measures'] extends readonly (infer Name)[] ? (Name extends string ? Name : never) : never)
  | (Q['dimensions'] extends readonly (infer Name)[] ? (Name extends string ? Name : never) : never)
  | (Q['timeDimensions'] extends readonly (infer Item)[]
      ? Item extends {
          /** The time dimension, `view.dimension`. */
          dimension: infer Name extends string;
          /** Its granularity, which makes it a column. */
          granularity: infer Unit extends string;
        }
        ? Name | `${Name}.${Unit}`
        : never
      : never);

/**
 * A row of a JSON query's result, keyed by member. Typed from the query where its members are
 * literal (`dataQueryOptions({ measures: ['orders.count'] })` gives rows with an `orders.count`),
 * else a record of any member name.
 */
export type DataRow<Q extends DataQuery = DataQuery> =
  string extends MembersOf<Q> ? Record<string, LoadValue> : { [Member in MembersOf<Q>]: LoadValue };

/** What a JSON query resolves with: the rows as the data API sent them, and its annotation. */
export interface DataQueryResult<Row = Record<string, LoadValue>> {
  /** The rows, one object per row keyed by member, values as the data API sent them. */
  data: Row[];
  /** Titles, short titles, types and formats of the members, as the data API sent them. */
  annotation: LoadAnnotation;
  /** The query as the service normalised it (its `order`, `limit`, time zone). */
  query: LoadQuery & Record<string, unknown>;
  /** When the data was last refreshed, ISO 8601, when the service said. */
  lastRefreshTime?: string;
}

/** The annotation of a SQL result: its columns, in the order of each row's cells. */
export interface SqlAnnotation {
  /** Name and `column_type` of each column. */
  schema: CubeSqlColumn[];
}

/** What a SQL query resolves with: its rows and its columns. */
export interface SqlQueryResult {
  /** The rows, one cell per column in schema order, as strings (numbers too) or `null`. */
  data: CubeSqlRow[];
  /** The columns. */
  annotation: SqlAnnotation;
  /** When the data was last refreshed, ISO 8601, when the service said. */
  lastRefreshTime?: string;
}

/** Key of a JSON query. */
export type DataQueryKey = readonly ['@service/react', 'data', 'load', string, LoadQuery];
/** Key of a SQL query. */
export type SqlQueryKey = readonly ['@service/react', 'data', 'sql', string, CubeSqlRequest];
/** Key of the metadata. */
export type MetaQueryKey = readonly ['@service/react', 'data', 'meta', string];

/**
 * Query options for TanStack Query, as `queryOptions` of `@tanstack/react-query` returns them:
 * pass them to `useQuery`, `useSuspenseQuery`, `queryClient.prefetchQuery` or `fetchQuery`, and
 * spread them to set more (`{ ...dataQueryOptions(query, settings), select }`).
 */
export interface DataQueryOptions<TData, TKey extends readonly unknown[]> {
  /** The key: kind, data API URL and query; never the token. */
  queryKey: TKey;
  /** Runs the query with the signal TanStack gives (aborted when the query is cancelled). */
  queryFn: (context: { signal: AbortSignal }) => Promise<TData>;
  /** {@link DEFAULT_DATA_STALE_TIME_MS}. */
  staleTime: number;
  /** Retries only failures that may pass, at most {@link DEFAULT_DATA_RETRIES} times. */
  retry: (failureCount: number, error: unknown) => boolean;
}

/**
 * True for a data API failure that may pass if the same query is sent again: a lost connection,
 * a 5xx or a 429. Not a refused token, a query the service rejects, or an abort.
 */
export function isRetryableDataError(error: unknown): boolean {
  if (ConnectionLostError.isInstance(error)) return true;
  return ServiceHttpError.isInstance(error) && (error.status >= 500 || error.status === 429);
}

function retry(failureCount: number, error: unknown): boolean {
  return failureCount < DEFAULT_DATA_RETRIES && isRetryableDataError(error);
}

/** A copy of `value` as JSON would carry it: no `undefined`, no functions, no shared objects. */
function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Runs `run` with a data client of `settings`; missing or bad settings reject with `ServiceConfigError`. */
function withClient<T>(
  who: string,
  settings: DataSettings | undefined,
  run: (client: ReturnType<typeof createDataClient>) => Promise<T>,
): Promise<T> {
  if (!settings) {
    return Promise.reject(
      new ServiceConfigError(
        `${who}: no data API settings: pass settings ({ url, token }), or use the hooks and components inside <ServiceProvider data={…}>`,
      ),
    );
  }
  try {
    return run(createDataClient(settings));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Query options of a JSON query (`/v1/load`), resolving with `{ data: rows, annotation, query }`:
 * rows keyed by member, typed from the query's literal members (declare the query `as const`, or
 * write it inline).
 *
 * ```ts
 * // A server loader or React Server Component:
 * await queryClient.prefetchQuery(dataQueryOptions({ measures: ['orders.total_revenue'] }, settings));
 * // A component:
 * const { data } = useQuery(dataQueryOptions({ measures: ['orders.count'], dimensions: ['orders.status'] }, settings));
 * data?.data[0]?.['orders.status'];
 * ```
 *
 * `Continue wait` answers are repeated inside (the query stays pending); a token function is
 * asked again once after a 401 or 403; failures are the library's typed errors (`DataQueryError`,
 * `ServiceHttpError` for a rejected query, `ServiceAuthError`, `ConnectionLostError`,
 * `ContinueWaitExhaustedError`); TanStack's signal aborts the request. Without `settings` the
 * query fails with a `ServiceConfigError`: only the hooks and components know `ServiceProvider`.
 * @param query The JSON query; kept in the key as JSON.
 * @param settings The data API's URL and token. The hooks and components pass `ServiceProvider`'s `data`.
 */
export function dataQueryOptions<const Q extends DataQuery>(
  query: Q,
  settings?: DataSettings,
): DataQueryOptions<DataQueryResult<DataRow<Q>>, DataQueryKey> {
  const key = asJson(query as LoadQuery);
  return {
    queryKey: [...DATA_QUERY_KEY, 'load', settings?.url ?? '', key],
    queryFn: ({ signal }) =>
      withClient('dataQueryOptions', settings, async (client) => {
        const answer = await client.load(key, { signal });
        return {
          data: answer.data as DataRow<Q>[],
          annotation: answer.annotation,
          query: answer.query,
          ...(typeof answer.lastRefreshTime === 'string' ? { lastRefreshTime: answer.lastRefreshTime } : {}),
        };
      }),
    staleTime: DEFAULT_DATA_STALE_TIME_MS,
    retry,
  };
}

/**
 * Query options of a SQL query (`/v1/cubesql`; measures as `MEASURE(view.measure)`), resolving
 * with `{ data: rows, annotation: { schema } }`: rows as arrays of cells in schema order. The same
 * `Continue wait`, token, error and abort handling as {@link dataQueryOptions}.
 * @param sql The SQL, or `{ query, timezone }`.
 * @param settings The data API's URL and token. The hooks and components pass `ServiceProvider`'s `data`.
 */
export function sqlQueryOptions(
  sql: string | CubeSqlRequest,
  settings?: DataSettings,
): DataQueryOptions<SqlQueryResult, SqlQueryKey> {
  const request = asJson<CubeSqlRequest>(typeof sql === 'string' ? { query: sql } : sql);
  return {
    queryKey: [...DATA_QUERY_KEY, 'sql', settings?.url ?? '', request],
    queryFn: ({ signal }) =>
      withClient('sqlQueryOptions', settings, async (client) => {
        const { schema, rows, lastRefreshTime } = await client.sql(request, { signal });
        return { data: rows, annotation: { schema }, ...(lastRefreshTime === undefined ? {} : { lastRefreshTime }) };
      }),
    staleTime: DEFAULT_DATA_STALE_TIME_MS,
    retry,
  };
}

/**
 * Query options of the data model's metadata (`/v1/meta`): its cubes and views, with their
 * measures and dimensions, titles and types. The same handling as {@link dataQueryOptions}.
 * @param settings The data API's URL and token. The hooks and components pass `ServiceProvider`'s `data`.
 */
export function metaQueryOptions(settings?: DataSettings): DataQueryOptions<MetaResponse, MetaQueryKey> {
  return {
    queryKey: [...DATA_QUERY_KEY, 'meta', settings?.url ?? ''],
    queryFn: ({ signal }) => withClient('metaQueryOptions', settings, (client) => client.meta({ signal })),
    staleTime: DEFAULT_DATA_STALE_TIME_MS,
    retry,
  };
}

/** How many rows one page of {@link dataInfiniteQueryOptions} asks for, by default. */
export const DEFAULT_DATA_PAGE_SIZE = 100;

/** Key of a JSON query read in pages. */
export type DataPagesQueryKey = readonly ['@service/react', 'data', 'load-pages', string, LoadQuery, number];

/**
 * Infinite query options for TanStack Query, as `infiniteQueryOptions` returns them: pass them to
 * `useInfiniteQuery` or `queryClient.prefetchInfiniteQuery`. Each page is one data query's result.
 */
export interface DataInfiniteQueryOptions<TPage, TKey extends readonly unknown[]> {
  /** The key: kind, data API URL, query and page size; never the token. */
  queryKey: TKey;
  /** Runs the query for one page: `pageParam` is how many rows come before it. */
  queryFn: (context: { signal: AbortSignal; pageParam: number }) => Promise<TPage>;
  /** The first page starts after the query's own `offset`: 0. */
  initialPageParam: number;
  /** Rows before the next page, or `undefined` when the last page was not full (or the query's `limit` is reached). */
  getNextPageParam: (lastPage: TPage, allPages: TPage[], lastPageParam: number) => number | undefined;
  /** {@link DEFAULT_DATA_STALE_TIME_MS}. */
  staleTime: number;
  /** As {@link DataQueryOptions.retry}. */
  retry: (failureCount: number, error: unknown) => boolean;
}

/**
 * Infinite query options of a JSON query read `pageSize` rows at a time (`limit` and `offset` of
 * each page set here, within the query's own `limit` and after its own `offset`): what a table
 * with "load more" needs. Each page resolves as {@link dataQueryOptions} does, with the same
 * `Continue wait`, token, error and abort handling.
 *
 * ```ts
 * const pages = useInfiniteQuery(dataInfiniteQueryOptions(query, settings, { pageSize: 50 }));
 * pages.fetchNextPage();
 * ```
 * @param query The JSON query; its `order` decides the order of the pages.
 * @param settings The data API's URL and token. The hooks and components pass `ServiceProvider`'s `data`.
 * @param options `pageSize`: rows per page, default {@link DEFAULT_DATA_PAGE_SIZE}.
 */
export function dataInfiniteQueryOptions<const Q extends DataQuery>(
  query: Q,
  settings?: DataSettings,
  options: {
    /** Rows per page, a whole number of 1 or more. Default {@link DEFAULT_DATA_PAGE_SIZE}. */
    pageSize?: number;
  } = {},
): DataInfiniteQueryOptions<DataQueryResult<DataRow<Q>>, DataPagesQueryKey> {
  const key = asJson(query as LoadQuery);
  const given = options.pageSize ?? DEFAULT_DATA_PAGE_SIZE;
  const pageSize = Number.isInteger(given) && given >= 1 ? given : DEFAULT_DATA_PAGE_SIZE;
  const { limit, offset = 0 } = key;
  /** Rows the page after `before` rows asks for: a page, or what is left of the query's limit. */
  const rowsOfPage = (before: number) => (limit === undefined ? pageSize : Math.min(pageSize, limit - before));
  const one = (before: number) =>
    dataQueryOptions({ ...key, limit: rowsOfPage(before), offset: offset + before }, settings);
  return {
    queryKey: [...DATA_QUERY_KEY, 'load-pages', settings?.url ?? '', key, pageSize],
    queryFn: ({ signal, pageParam }) => one(pageParam).queryFn({ signal }) as Promise<DataQueryResult<DataRow<Q>>>,
    initialPageParam: 0,
    getNextPageParam: (lastPage, _allPages, lastPageParam) => {
      const next = lastPageParam + lastPage.data.length;
      return lastPage.data.length < rowsOfPage(lastPageParam) || rowsOfPage(next) <= 0 ? undefined : next;
    },
    staleTime: DEFAULT_DATA_STALE_TIME_MS,
    retry,
  };
}
