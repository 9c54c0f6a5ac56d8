/**
 * The data hooks against the emulator over real HTTP, on React 19 (unit) and React 18
 * (unit-react18): each hook's rows equal the data API's answer for the same query, settings come
 * from ServiceProvider, `Continue wait` stays inside, a token function is asked again once after a
 * refusal, errors are typed, and unmounting aborts the request.
 */
import { QueryClient, QueryClientProvider, useSuspenseQuery } from '@tanstack/react-query';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import { StrictMode, Suspense, type ReactNode } from 'react';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { dataQueryOptions, type DataSettings } from '../../../src/core/data-query';
import { ServiceAuthError, ServiceConfigError, ServiceHttpError, type ServiceError } from '../../../src/core/errors';
import { WORLD, signDeploymentToken } from '../../../src/emulator';
import { ServiceProvider } from '../../../src/react';
import { useDataMeta, useDataQuery, useDataSettings, useSqlQuery } from '../../../src/react/use-data-query';
import { encodeInThisRealm, rawData, recordingFetch, startTestEmulator } from './helpers';

encodeInThisRealm();
afterEach(cleanup);

const env = startTestEmulator();

function provider(data: DataSettings, client = new QueryClient()) {
  return ({ children }: { children: ReactNode }) => (
    <ServiceProvider data={data} queryClient={client}>
      {children}
    </ServiceProvider>
  );
}

const settings = (extra: Partial<DataSettings> = {}) => env.settings({ continueWait: { delayMs: 5 }, ...extra });

const BY_STATUS = { measures: ['orders.count', 'orders.total_revenue'], dimensions: ['orders.status'] } as const;

describe('each hook returns what the data API answers for the same query', () => {
  it('useDataQuery: the rows and annotation of /v1/load, typed by the query, settings from ServiceProvider', async () => {
    const { result } = renderHook(() => useDataQuery(BY_STATUS), { wrapper: provider(settings()) });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const expected = (await rawData(env, '/v1/load', { query: BY_STATUS })) as Record<string, unknown>;
    expect(result.current.data?.data).toEqual(expected['data']);
    expect(result.current.data?.annotation).toEqual(expected['annotation']);
    expectTypeOf(result.current.data!.data[0]!['orders.status']).toEqualTypeOf<string | number | boolean | null>();
    expectTypeOf(result.current.error).toEqualTypeOf<ServiceError | null>();
  });

  it('useSqlQuery: the schema and rows of /v1/cubesql', async () => {
    const sql = 'SELECT region, MEASURE(orders.count) AS orders FROM orders GROUP BY 1 ORDER BY 1';
    const { result } = renderHook(() => useSqlQuery(sql), { wrapper: provider(settings()) });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const expected = (await rawData(env, '/v1/cubesql', { query: sql })) as {
      schema: unknown;
      rows: unknown;
    };
    expect(result.current.data?.data).toEqual(expected.rows);
    expect(result.current.data?.annotation.schema).toEqual(expected.schema);
  });

  it('useDataMeta: the cubes of /v1/meta; select works as TanStack has it', async () => {
    const { result } = renderHook(() => useDataMeta({ select: (meta) => meta.cubes.map((cube) => cube.name) }), {
      wrapper: provider(settings()),
    });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const expected = (await rawData(env, '/v1/meta')) as { cubes: { name: string }[] };
    expect(result.current.data).toEqual(expected.cubes.map((cube) => cube.name));
    expectTypeOf(result.current.data).toEqualTypeOf<string[] | undefined>();
  });

  it('the settings option wins over the provider; useSuspenseQuery works with useDataSettings', async () => {
    const bad = { url: env.emulator.dataUrl, token: 'not-a-token' };
    const { result } = renderHook(() => useDataQuery({ measures: ['orders.count'] }, { settings: settings() }), {
      wrapper: provider(bad),
    });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));

    function Total() {
      const { data } = useSuspenseQuery(dataQueryOptions({ measures: ['orders.count'] }, useDataSettings()));
      return <p>orders: {String(data.data[0]!['orders.count'])}</p>;
    }
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <ServiceProvider data={settings()}>
          <Suspense fallback={<p>loading</p>}>
            <Total />
          </Suspense>
        </ServiceProvider>
      </QueryClientProvider>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    expect((await screen.findByText(/^orders: \d+$/)).textContent).toBe(
      `orders: ${String(result.current.data!.data[0]!['orders.count'])}`,
    );
  });
});

describe('Continue wait, token refresh, errors, abort', () => {
  it('Continue wait keeps the query pending, then resolves with the data: never an error', async () => {
    const { fetch, sent } = recordingFetch({ slow: 3 });
    const seen: string[] = [];
    const { result } = renderHook(
      () => {
        const query = useDataQuery(BY_STATUS);
        seen.push(query.status);
        return query;
      },
      { wrapper: provider(settings({ fetch })) },
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(sent).toHaveLength(4);
    expect(seen).not.toContain('error');
    const expected = (await rawData(env, '/v1/load', { query: BY_STATUS })) as { data: unknown };
    expect(result.current.data?.data).toEqual(expected.data);
  });

  it('a token function is asked again once with { refresh: true } after a refusal, and the query succeeds', async () => {
    const stale = await signDeploymentToken(WORLD, { deploymentId: 2 });
    const asked: boolean[] = [];
    const { fetch, sent } = recordingFetch();
    const { result } = renderHook(() => useDataQuery({ measures: ['orders.count'] }), {
      wrapper: provider(
        settings({
          fetch,
          token: ({ refresh }) => {
            asked.push(refresh);
            return refresh ? env.token : stale;
          },
        }),
      ),
    });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(asked).toEqual([false, true]);
    expect(sent.map((request) => request.authorization)).toEqual([stale, env.token]);
  });

  it('errors are typed: a refused token ServiceAuthError, a rejected query ServiceHttpError, no settings ServiceConfigError', async () => {
    const refused = renderHook(() => useDataQuery({ measures: ['orders.count'] }), {
      wrapper: provider(settings({ token: 'not-a-token' })),
    });
    await waitFor(() => expect(refused.result.current.isError).toBe(true));
    expect(ServiceAuthError.isInstance(refused.result.current.error)).toBe(true);

    const rejected = renderHook(() => useDataQuery({ measures: ['orders.nope'] }), { wrapper: provider(settings()) });
    await waitFor(() => expect(rejected.result.current.isError).toBe(true));
    expect(ServiceHttpError.isInstance(rejected.result.current.error)).toBe(true);
    expect(rejected.result.current.error?.status).toBe(400);

    const client = new QueryClient();
    const none = renderHook(() => useDataQuery({ measures: ['orders.count'] }), {
      wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
    });
    await waitFor(() => expect(none.result.current.isError).toBe(true));
    expect(ServiceConfigError.isInstance(none.result.current.error)).toBe(true);
  });

  it('unmounting aborts the request in flight and sends no more (StrictMode included)', async () => {
    const { fetch, sent } = recordingFetch({ slow: 1000 });
    const client = new QueryClient();
    const { unmount } = renderHook(() => useDataQuery({ measures: ['orders.count'], dimensions: ['orders.region'] }), {
      wrapper: ({ children }) => (
        <StrictMode>
          <ServiceProvider data={settings({ fetch, continueWait: { delayMs: 20 } })} queryClient={client}>
            {children}
          </ServiceProvider>
        </StrictMode>
      ),
    });
    await waitFor(() => expect(sent.length).toBeGreaterThanOrEqual(2));
    act(() => unmount());
    await waitFor(() => expect(sent.at(-1)?.signal?.aborted).toBe(true));
    const count = sent.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toHaveLength(count);
    // The query went back to where it was: nothing cached, no error.
    expect(client.getQueryCache().getAll()[0]?.state).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
  });
});
