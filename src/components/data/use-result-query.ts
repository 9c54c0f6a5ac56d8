/**
 * What the data views share: a query (JSON or SQL) run through TanStack Query with the same
 * options and key as `dataQueryOptions` / `sqlQueryOptions` (so a server's prefetch is found),
 * its result read as a `ResultView`, and the props every view takes to say where the data API is.
 *
 * @module
 */
import { useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import {
  dataQueryOptions,
  sqlQueryOptions,
  type DataQuery,
  type DataQueryOptions,
  type DataQueryResult,
  type DataSettings,
  type SqlQueryResult,
} from '../../core/data-query';
import { toResultView, type ResultView } from '../../core/data-result';
import type { ServiceError } from '../../core/errors';
import { useDataSettings } from '../../react/use-data-query';
import { useServiceQueryClient } from '../../react/use-service-query-client';

/** Props every data view takes: where the data API is, and which TanStack client caches. */
export interface DataViewSource {
  /** The data API's URL and token. Default: `ServiceProvider`'s `data`. */
  settings?: DataSettings;
  /**
   * The TanStack Query client. Default: `ServiceProvider`'s `queryClient`, else the enclosing
   * `QueryClientProvider`'s (where `HydrationBoundary` puts a server's prefetched results), else
   * the provider's own.
   */
  queryClient?: QueryClient;
}

/** A JSON query, or SQL (`MEASURE(view.measure)` for measures). */
export type ViewQuery = DataQuery | string;

/** The query options of `query`: the SQL ones for a string, the JSON ones otherwise. */
export function viewQueryOptions(
  query: ViewQuery,
  settings: DataSettings | undefined,
): DataQueryOptions<DataQueryResult | SqlQueryResult, readonly unknown[]> {
  return typeof query === 'string' ? sqlQueryOptions(query, settings) : dataQueryOptions(query, settings);
}

/** The client and settings a view uses. */
export function useViewSource(source: DataViewSource): { settings: DataSettings | undefined; client: QueryClient } {
  const settings = useDataSettings(source.settings);
  const fallback = useServiceQueryClient();
  return { settings, client: source.queryClient ?? fallback };
}

/**
 * Runs `query` (skipped while `enabled` is false) and gives its result as a `ResultView`. The
 * conversion is TanStack's `select` with one function for every view, so it runs once per result.
 */
export function useResultQuery(
  query: ViewQuery,
  source: DataViewSource,
  enabled = true,
): UseQueryResult<ResultView, ServiceError> {
  const { settings, client } = useViewSource(source);
  return useQuery<DataQueryResult | SqlQueryResult, ServiceError, ResultView, readonly unknown[]>(
    { ...viewQueryOptions(query, settings), select: toResultView, enabled },
    client,
  );
}
