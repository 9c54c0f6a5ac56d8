/**
 * "Load all": runs a tool call's SQL on the data API (`/v1/cubesql`, streamed) through TanStack
 * Query, with the rows received so far as progress.
 *
 * @module
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { createDataClient } from '../../core/data-client';
import type { CubeSqlColumn, CubeSqlRow } from '../../core/protocol/data';
import { useOptionalServiceContext } from '../../react/context';
import { useLatest } from '../../react/use-latest';
import { useServiceQueryClient } from '../../react/use-service-query-client';

/** Runs `callback` before the next paint (on the next tick where there are no frames). */
function nextFrame(callback: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(callback);
  else setTimeout(callback, 16);
}

/** Every row of a query, as the data API sent them. */
export interface LoadedRows {
  schema: CubeSqlColumn[];
  rows: CubeSqlRow[];
}

/** What {@link useLoadAll} returns. */
export interface LoadAll {
  /** False without the provider's `data` settings or without SQL: then there is no "load all". */
  available: boolean;
  status: 'idle' | 'loading' | 'success' | 'error';
  /** Rows received so far while loading. */
  received: number;
  data: LoadedRows | undefined;
  error: Error | null;
  /** Starts loading, or tries again after an error. */
  start(): void;
  /** Stops a load in progress and forgets it. */
  cancel(): void;
}

/** Query key of a "load all": the data API and the SQL identify the result. */
export function loadAllQueryKey(dataUrl: string | undefined, sql: string | undefined): readonly unknown[] {
  return ['@service/react', 'sql-result', dataUrl, sql];
}

/**
 * Loads every row of `sql` from the data API of the nearest `ServiceProvider`'s `data` settings,
 * when asked to (`start()`); the result is cached by TanStack Query under the data URL and the SQL.
 */
export function useLoadAll(sql: string | undefined): LoadAll {
  const data = useOptionalServiceContext()?.data;
  const latestData = useLatest(data);
  const queryClient = useServiceQueryClient();
  const [requested, setRequested] = useState(false);
  const [received, setReceived] = useState(0);
  const available = Boolean(data?.url && data.token && sql);
  const queryKey = loadAllQueryKey(data?.url, sql);
  const query = useQuery(
    {
      queryKey,
      queryFn: async ({ signal }): Promise<LoadedRows> => {
        const settings = latestData.current;
        if (!settings || !sql) throw new Error('No data API settings');
        const client = createDataClient(settings);
        let schema: CubeSqlColumn[] = [];
        const rows: CubeSqlRow[] = [];
        // Progress renders at most once per frame, however fast the rows come.
        let scheduled = false;
        const report = () => {
          if (scheduled) return;
          scheduled = true;
          nextFrame(() => {
            scheduled = false;
            setReceived(rows.length);
          });
        };
        setReceived(0);
        for await (const chunk of client.sqlChunks(sql, { signal })) {
          if (chunk.type === 'schema') schema = chunk.schema;
          else {
            for (const row of chunk.rows) rows.push(row);
            report();
          }
        }
        setReceived(rows.length);
        return { schema, rows };
      },
      enabled: requested && available,
      staleTime: Infinity,
      retry: false,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
    },
    queryClient,
  );
  const { refetch } = query;
  const start = useCallback(() => {
    if (!requested) setRequested(true);
    else void refetch();
  }, [requested, refetch]);
  const keyText = JSON.stringify(queryKey);
  const cancel = useCallback(() => {
    setRequested(false);
    void queryClient.cancelQueries({ queryKey: JSON.parse(keyText) as unknown[] });
  }, [queryClient, keyText]);
  const status: LoadAll['status'] = !requested
    ? 'idle'
    : query.isError
      ? 'error'
      : query.data && !query.isFetching
        ? 'success'
        : 'loading';
  return {
    available,
    status,
    received,
    data: requested ? query.data : undefined,
    error: requested ? query.error : null,
    start,
    cancel,
  };
}
