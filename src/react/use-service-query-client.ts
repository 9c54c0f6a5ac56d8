/**
 * Which TanStack Query client the library's data fetches use, without ever wrapping the host's
 * tree in a `QueryClientProvider` (which would take the host's own queries away from their client).
 *
 * @module
 */
import { QueryClient, QueryClientContext } from '@tanstack/react-query';
import { useContext } from 'react';
import { useOptionalServiceContext } from './context';

/** The client used by parts rendered outside any `ServiceProvider` and `QueryClientProvider`: one per page. */
const standalone: { current: QueryClient | undefined } = { current: undefined };

/** A client for the library's own fetches: results are not retried behind the user's back. */
function createOwnQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
}

/**
 * The TanStack Query client for the library's data fetches (a result's "load all"), in this order:
 * 1. the `queryClient` prop of the nearest `ServiceProvider`;
 * 2. the client of an enclosing `QueryClientProvider` (read with `useContext`, so no provider is
 *    needed and nothing throws);
 * 3. the library's own client, created on first use and kept once per `ServiceProvider` (once per
 *    page outside any provider), so every part under one provider shares its cache.
 */
export function useServiceQueryClient(): QueryClient {
  const service = useOptionalServiceContext();
  const enclosing = useContext(QueryClientContext);
  if (service?.queryClient) return service.queryClient;
  if (enclosing) return enclosing;
  const slot = service?.ownQueryClient ?? standalone;
  // Lazily filled once, during render: every render of every part reads the same client after.
  slot.current ??= createOwnQueryClient();
  return slot.current;
}
