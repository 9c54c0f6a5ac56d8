/**
 * The data hooks: `useDataQuery`, `useSqlQuery` and `useDataMeta`, each TanStack's `useQuery`
 * over the query options of `core/data-query.ts`, with the settings of `ServiceProvider`'s `data`
 * and the client of `useServiceQueryClient`. They add nothing to what TanStack returns.
 *
 * @module
 */
import { useQuery, type QueryClient, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import {
  dataQueryOptions,
  metaQueryOptions,
  sqlQueryOptions,
  type DataQuery,
  type DataQueryKey,
  type DataQueryResult,
  type DataRow,
  type DataSettings,
  type MetaQueryKey,
  type SqlQueryKey,
  type SqlQueryResult,
} from '../core/data-query';
import type { ServiceError } from '../core/errors';
import type { CubeSqlRequest, MetaResponse } from '../core/protocol/data';
import { useOptionalServiceContext } from './context';
import { useServiceQueryClient } from './use-service-query-client';

/**
 * Options of the data hooks: TanStack's `useQuery` options (`enabled`, `select`, `staleTime`,
 * `refetchInterval`, `placeholderData`...) but the key and the function, which the query makes,
 * plus where the data API is and which client caches.
 */
export type UseDataQueryOptions<TQueryFnData, TData, TKey extends readonly unknown[]> = Omit<
  UseQueryOptions<TQueryFnData, ServiceError, TData, TKey>,
  'queryKey' | 'queryFn'
> & {
  /** The data API's URL and token. Default: `ServiceProvider`'s `data`. */
  settings?: DataSettings;
  /**
   * The TanStack Query client. Default: `ServiceProvider`'s `queryClient`, else the enclosing
   * `QueryClientProvider`'s, else the provider's own.
   */
  queryClient?: QueryClient;
};

/**
 * The data settings the hooks and components use: `settings` when given, else the nearest
 * `ServiceProvider`'s `data`, else `undefined` (the query then fails with a `ServiceConfigError`).
 * For `useSuspenseQuery` and your own `useQuery` calls:
 *
 * ```tsx
 * const { data } = useSuspenseQuery(dataQueryOptions(query, useDataSettings()));
 * ```
 */
export function useDataSettings(settings?: DataSettings): DataSettings | undefined {
  const provided = useOptionalServiceContext()?.data;
  return settings ?? provided;
}

/** The client a data hook uses: the one it was given, else `useServiceQueryClient`'s. */
function useClient(given: QueryClient | undefined): QueryClient {
  const fallback = useServiceQueryClient();
  return given ?? fallback;
}

/**
 * Runs a JSON query (`/v1/load`) through TanStack Query and returns TanStack's result
 * (`data`, `isPending`, `error`, `refetch`...): `data` is `{ data: rows, annotation, query }`,
 * rows keyed by member and typed from the query's literal members. See `dataQueryOptions` for
 * `Continue wait`, token refresh, errors and abort (on unmount, through TanStack's signal).
 *
 * ```tsx
 * const revenue = useDataQuery({ measures: ['orders.total_revenue'], dimensions: ['orders.region'] });
 * revenue.data?.data.map((row) => row['orders.region']);
 * ```
 * @param query The JSON query.
 * @param options TanStack's options, `settings` and `queryClient`.
 */
export function useDataQuery<const Q extends DataQuery, TData = DataQueryResult<DataRow<Q>>>(
  query: Q,
  options: UseDataQueryOptions<DataQueryResult<DataRow<Q>>, TData, DataQueryKey> = {},
): UseQueryResult<TData, ServiceError> {
  const { settings, queryClient, ...rest } = options;
  const data = useDataSettings(settings);
  const client = useClient(queryClient);
  return useQuery<DataQueryResult<DataRow<Q>>, ServiceError, TData, DataQueryKey>(
    { ...dataQueryOptions(query, data), ...rest },
    client,
  );
}

/**
 * Runs SQL (`/v1/cubesql`; measures as `MEASURE(view.measure)`) through TanStack Query and
 * returns TanStack's result: `data` is `{ data: rows, annotation: { schema } }`, rows as arrays of
 * cells in schema order. See `sqlQueryOptions`.
 * @param sql The SQL, or `{ query, timezone }`.
 * @param options TanStack's options, `settings` and `queryClient`.
 */
export function useSqlQuery<TData = SqlQueryResult>(
  sql: string | CubeSqlRequest,
  options: UseDataQueryOptions<SqlQueryResult, TData, SqlQueryKey> = {},
): UseQueryResult<TData, ServiceError> {
  const { settings, queryClient, ...rest } = options;
  const data = useDataSettings(settings);
  const client = useClient(queryClient);
  return useQuery<SqlQueryResult, ServiceError, TData, SqlQueryKey>({ ...sqlQueryOptions(sql, data), ...rest }, client);
}

/**
 * Reads the data model's metadata (`/v1/meta`: cubes and views, their measures and dimensions)
 * through TanStack Query and returns TanStack's result. See `metaQueryOptions`.
 * @param options TanStack's options, `settings` and `queryClient`.
 */
export function useDataMeta<TData = MetaResponse>(
  options: UseDataQueryOptions<MetaResponse, TData, MetaQueryKey> = {},
): UseQueryResult<TData, ServiceError> {
  const { settings, queryClient, ...rest } = options;
  const data = useDataSettings(settings);
  const client = useClient(queryClient);
  return useQuery<MetaResponse, ServiceError, TData, MetaQueryKey>({ ...metaQueryOptions(data), ...rest }, client);
}
