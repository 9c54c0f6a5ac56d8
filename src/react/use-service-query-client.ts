/**
 * Which TanStack Query client the library's data fetches use, without ever wrapping the host's
 * tree in a `QueryClientProvider` (which would take the host's own queries away from their client).
 *
 * @module
 */
import { QueryClient, QueryClientContext } from '@tanstack/react-query';
import { useContext, useState } from 'react';
import { useOptionalServiceContext } from './context';

/** A client for the library's own fetches: results are not retried behind the user's back. */
function createOwnQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
}

/**
 * The TanStack Query client for the library's data fetches, in this order:
 * 1. the `queryClient` prop of the nearest `ServiceProvider`;
 * 2. the client of an enclosing `QueryClientProvider` (read with `useContext`, so no provider is
 *    needed and nothing throws);
 * 3. the library's own client, created on first use and kept once per `ServiceProvider`, so every
 *    part under one provider shares its cache; outside any provider, one per component.
 *
 * Never one per module: on a server, a client shared by every render would hand one viewer's
 * rows to the next request's render. A provider lives for one render of one request.
 */
export function useServiceQueryClient(): QueryClient {
  const service = useOptionalServiceContext();
  const enclosing = useContext(QueryClientContext);
  const [own] = useState<{ current: QueryClient | undefined }>(() => ({ current: undefined }));
  if (service?.queryClient) return service.queryClient;
  if (enclosing) return enclosing;
  const slot = service?.ownQueryClient ?? own;
  // Lazily filled once, during render: every render of every part reads the same client after.
  slot.current ??= createOwnQueryClient();
  return slot.current;
}
