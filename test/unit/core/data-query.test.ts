// @vitest-environment node
/**
 * The data query options with TanStack Query's own client, against the emulator over real HTTP:
 * each resolves with what the data API answers for the same query, `Continue wait` stays inside,
 * a token function is asked again once after a refusal, failures are typed and only the passing
 * kind is retried, cancelling aborts the request, and keys hold the URL and the query, never the
 * token or a function. Node's own fetch and AbortSignal (jsdom's would not reach a socket).
 */
import { QueryClient, hashKey } from '@tanstack/react-query';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ContinueWaitExhaustedError, DataQueryError, type DataTokenRequest } from '../../../src/core/data-client';
import {
  DATA_QUERY_KEY,
  DEFAULT_DATA_STALE_TIME_MS,
  dataQueryOptions,
  isRetryableDataError,
  metaQueryOptions,
  sqlQueryOptions,
  type DataSettings,
} from '../../../src/core/data-query';
import { toResultView } from '../../../src/core/data-result';
import {
  ConnectionLostError,
  ServiceAbortError,
  ServiceAuthError,
  ServiceConfigError,
  ServiceHttpError,
} from '../../../src/core/errors';
import { WORLD, signDeploymentToken } from '../../../src/emulator';
import { rawData, recordingFetch, startTestEmulator } from '../data/helpers';

const env = startTestEmulator();

function settingsOf(extra: Partial<DataSettings> = {}): DataSettings {
  return env.settings({ continueWait: { delayMs: 5 }, ...extra });
}

/** What the data API itself answers for the viewer: `/v1/load` and `/v1/meta` JSON, `/v1/cubesql` rows. */
const raw = (path: '/v1/load' | '/v1/cubesql' | '/v1/meta', body?: unknown) => rawData(env, path, body);

const client = () => new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });

const REVENUE_BY_REGION = {
  measures: ['orders.total_revenue', 'orders.count'],
  dimensions: ['orders.region'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2025-01-01', '2025-06-30'] }],
} as const;

describe('the data query options resolve with what the data API answers', () => {
  it('dataQueryOptions: the rows and annotation of /v1/load for the same query', async () => {
    const expected = (await raw('/v1/load', { query: REVENUE_BY_REGION })) as Record<string, unknown>;
    const result = await client().fetchQuery(dataQueryOptions(REVENUE_BY_REGION, settingsOf()));
    expect(result.data).toEqual(expected['data']);
    expect(result.data).toHaveLength(4);
    expect(result.annotation).toEqual(expected['annotation']);
    expect(result.query).toEqual(expected['query']);
    expect(result.lastRefreshTime).toBe(expected['lastRefreshTime']);
  });

  it('sqlQueryOptions: the schema and rows of /v1/cubesql for the same SQL', async () => {
    const sql = 'SELECT status, MEASURE(orders.count) AS orders FROM orders GROUP BY 1 ORDER BY 1';
    const expected = (await raw('/v1/cubesql', { query: sql })) as { schema: unknown; rows: unknown[] };
    const result = await client().fetchQuery(sqlQueryOptions(sql, settingsOf()));
    expect(result.data).toEqual(expected.rows);
    expect(result.data.length).toBeGreaterThan(2);
    expect(result.annotation.schema).toEqual(expected.schema);
  });

  it('metaQueryOptions: the cubes of /v1/meta', async () => {
    const expected = await raw('/v1/meta');
    expect(await client().fetchQuery(metaQueryOptions(settingsOf()))).toEqual(expected);
  });

  it('toResultView turns either into the columns and rows the views read, titled and formatted by the annotation', async () => {
    const query = {
      measures: ['orders.total_revenue'],
      dimensions: ['orders.region'],
      timeDimensions: [
        { dimension: 'orders.created_at', granularity: 'month', dateRange: ['2025-01-01', '2025-02-28'] },
      ],
    } as const;
    const result = await client().fetchQuery(dataQueryOptions(query, settingsOf()));
    const view = toResultView(result);
    expect(view.columns).toEqual([
      { name: 'orders.created_at.month', title: 'Created at', type: 'timestamp', granularity: 'month' },
      { name: 'orders.region', title: 'Region', type: 'string' },
      { name: 'orders.total_revenue', title: 'Revenue', type: 'number', format: 'currency' },
    ]);
    expect(view.rows).toEqual(
      result.data.map((row) => [row['orders.created_at.month'], row['orders.region'], row['orders.total_revenue']]),
    );
    const sql = await client().fetchQuery(sqlQueryOptions('SELECT region FROM orders GROUP BY 1', settingsOf()));
    expect(toResultView(sql)).toEqual({ columns: [{ name: 'region', type: 'String' }], rows: sql.data });
  });
});

describe('keys', () => {
  it('hold the kind, the data API URL and the query as JSON: never the token or a function', () => {
    const settings = settingsOf({ token: () => env.token, fetch: globalThis.fetch });
    const options = dataQueryOptions({ measures: ['orders.count'], limit: undefined }, settings);
    expect(options.queryKey).toEqual([...DATA_QUERY_KEY, 'load', env.emulator.dataUrl, { measures: ['orders.count'] }]);
    expect(sqlQueryOptions('SELECT 1', settings).queryKey).toEqual([
      ...DATA_QUERY_KEY,
      'sql',
      env.emulator.dataUrl,
      { query: 'SELECT 1' },
    ]);
    expect(metaQueryOptions(settings).queryKey).toEqual([...DATA_QUERY_KEY, 'meta', env.emulator.dataUrl]);
    for (const key of [options.queryKey, metaQueryOptions(settingsOf()).queryKey]) {
      expect(JSON.parse(JSON.stringify(key))).toEqual(key);
      expect(JSON.stringify(key)).not.toContain(env.token);
    }
  });

  it('are the same for the same query, whatever the token or the order of its fields', () => {
    const a = dataQueryOptions({ measures: ['orders.count'], dimensions: ['orders.status'] }, settingsOf());
    const b = dataQueryOptions(
      { dimensions: ['orders.status'], measures: ['orders.count'] },
      settingsOf({ token: 'x' }),
    );
    expect(hashKey(a.queryKey)).toBe(hashKey(b.queryKey));
    const other = dataQueryOptions({ measures: ['orders.count'] }, settingsOf({ url: `${env.emulator.url}/data/2` }));
    expect(hashKey(other.queryKey)).not.toBe(hashKey(a.queryKey));
  });

  it('keep a copy of the query: changing the object later changes nothing', async () => {
    const query = { measures: ['orders.count'] };
    const options = dataQueryOptions(query, settingsOf());
    query.measures.push('orders.total_revenue');
    expect(options.queryKey[4]).toEqual({ measures: ['orders.count'] });
    const result = await client().fetchQuery(options);
    expect(Object.keys(result.data[0]!)).toEqual(['orders.count']);
  });

  it('one result is cached per key, and the fresh time is DEFAULT_DATA_STALE_TIME_MS', async () => {
    const { fetch, sent } = recordingFetch();
    const queryClient = client();
    const options = dataQueryOptions({ measures: ['orders.count'] }, settingsOf({ fetch }));
    expect(options.staleTime).toBe(DEFAULT_DATA_STALE_TIME_MS);
    await queryClient.fetchQuery(options);
    await queryClient.fetchQuery(dataQueryOptions({ measures: ['orders.count'] }, settingsOf({ fetch })));
    expect(sent).toHaveLength(1);
  });
});

describe('Continue wait, token refresh, errors and abort', () => {
  it('Continue wait is repeated inside: the query resolves with the data, no error', async () => {
    const { fetch, sent } = recordingFetch({ slow: 3 });
    const query = { measures: ['orders.count'], dimensions: ['orders.status'] } as const;
    const result = await client().fetchQuery(dataQueryOptions(query, settingsOf({ fetch })));
    expect(sent).toHaveLength(4);
    expect(result.data).toEqual(((await raw('/v1/load', { query })) as { data: unknown }).data);
    const sql = recordingFetch({ slow: 2 });
    const rows = await client().fetchQuery(sqlQueryOptions('SELECT 1 AS one', settingsOf({ fetch: sql.fetch })));
    expect(sql.sent).toHaveLength(3);
    expect(rows.data).toEqual([['1']]);
  });

  it('Continue wait past continueWait.maxAttempts is a ContinueWaitExhaustedError, not retried', async () => {
    const { fetch, sent } = recordingFetch({ slow: 10 });
    const error = await client()
      .fetchQuery(
        dataQueryOptions(
          { measures: ['orders.count'] },
          settingsOf({ fetch, continueWait: { maxAttempts: 2, delayMs: 1 } }),
        ),
      )
      .catch((caught: unknown) => caught);
    expect(ContinueWaitExhaustedError.isInstance(error)).toBe(true);
    expect(sent).toHaveLength(2);
  });

  it('a token function is asked again, once, with { refresh: true } after a refusal', async () => {
    // A token of deployment 2 is refused by deployment 1's data API (403), then a good one is given.
    const stale = await signDeploymentToken(WORLD, { deploymentId: 2 });
    const asked: DataTokenRequest[] = [];
    const { fetch, sent } = recordingFetch();
    const result = await client().fetchQuery(
      dataQueryOptions(
        { measures: ['orders.count'] },
        settingsOf({
          fetch,
          token: (request) => {
            asked.push(request);
            return request.refresh ? env.token : stale;
          },
        }),
      ),
    );
    expect(result.data).toHaveLength(1);
    expect(asked).toEqual([{ refresh: false }, { refresh: true }]);
    expect(sent.map((request) => request.authorization)).toEqual([stale, env.token]);
  });

  it('a token refused again is a ServiceAuthError: asked twice in all, never retried', async () => {
    const stale = await signDeploymentToken(WORLD, { deploymentId: 2 });
    let asked = 0;
    const { fetch, sent } = recordingFetch();
    const error = await client()
      .fetchQuery(
        dataQueryOptions(
          { measures: ['orders.count'] },
          settingsOf({
            fetch,
            token: () => {
              asked += 1;
              return stale;
            },
          }),
        ),
      )
      .catch((caught: unknown) => caught);
    expect(ServiceAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 403 });
    expect(asked).toBe(2);
    expect(sent).toHaveLength(2);
    // A token given as a string is not asked again.
    const once = recordingFetch();
    await client()
      .fetchQuery(dataQueryOptions({ measures: ['orders.count'] }, settingsOf({ fetch: once.fetch, token: stale })))
      .catch(() => undefined);
    expect(once.sent).toHaveLength(1);
  });

  it('a query the service rejects is a typed error, not retried', async () => {
    const { fetch, sent } = recordingFetch();
    const error = await client()
      .fetchQuery(dataQueryOptions({ measures: ['orders.nope'] }, settingsOf({ fetch })))
      .catch((caught: unknown) => caught);
    expect(ServiceHttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400 });
    expect(sent).toHaveLength(1);
    const sqlError = await client()
      .fetchQuery(sqlQueryOptions('SELECT nope FROM orders', settingsOf()))
      .catch((caught: unknown) => caught);
    expect(DataQueryError.isInstance(sqlError)).toBe(true);
  });

  it('a lost connection is retried DEFAULT_DATA_RETRIES times, then a ConnectionLostError', async () => {
    const { fetch, sent } = recordingFetch();
    // A port nothing listens on (the emulator's own, once closed, would do too).
    const error = await client()
      .fetchQuery(
        dataQueryOptions({ measures: ['orders.count'] }, settingsOf({ fetch, url: 'http://127.0.0.1:9/data/1' })),
      )
      .catch((caught: unknown) => caught);
    expect(ConnectionLostError.isInstance(error)).toBe(true);
    expect(sent).toHaveLength(3);
    expect(isRetryableDataError(new ServiceHttpError('x', { status: 503 }))).toBe(true);
    expect(isRetryableDataError(new ServiceHttpError('x', { status: 429 }))).toBe(true);
    expect(isRetryableDataError(new ServiceHttpError('x', { status: 400 }))).toBe(false);
    expect(isRetryableDataError(new ServiceAuthError('x', { status: 401 }))).toBe(false);
    expect(isRetryableDataError(new ServiceAbortError('x'))).toBe(false);
  });

  it('without settings the query fails with a ServiceConfigError that says what to pass', async () => {
    const error = await client()
      .fetchQuery(dataQueryOptions({ measures: ['orders.count'] }))
      .catch((caught: unknown) => caught);
    expect(ServiceConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/settings|ServiceProvider/);
    const bad = await client()
      .fetchQuery(metaQueryOptions({ url: '', token: env.token }))
      .catch((caught: unknown) => caught);
    expect(ServiceConfigError.isInstance(bad)).toBe(true);
  });

  it('cancelling the query aborts the request TanStack gave the signal to, and sends no more', async () => {
    const { fetch, sent } = recordingFetch({ slow: 1000 });
    const queryClient = client();
    const options = dataQueryOptions(
      { measures: ['orders.count'] },
      settingsOf({ fetch, continueWait: { delayMs: 20 } }),
    );
    const pending = queryClient.fetchQuery(options).catch((caught: unknown) => caught);
    while (sent.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await queryClient.cancelQueries({ queryKey: options.queryKey });
    await pending;
    const count = sent.length;
    expect(sent.at(-1)!.signal?.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sent).toHaveLength(count);
  });
});

describe('types', () => {
  it('rows are keyed by the literal members of the query, and by any name otherwise', async () => {
    const options = dataQueryOptions(
      {
        measures: ['orders.count'],
        dimensions: ['orders.status'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
      },
      settingsOf(),
    );
    type Row = Awaited<ReturnType<typeof options.queryFn>>['data'][number];
    expectTypeOf<keyof Row>().toEqualTypeOf<
      'orders.count' | 'orders.status' | 'orders.created_at' | 'orders.created_at.month'
    >();
    expectTypeOf<Row['orders.count']>().toEqualTypeOf<string | number | boolean | null>();
    type WideRow = Awaited<
      ReturnType<ReturnType<typeof dataQueryOptions<{ measures: string[] }>>['queryFn']>
    >['data'][number];
    expectTypeOf<WideRow>().toEqualTypeOf<Record<string, string | number | boolean | null>>();
    // TanStack takes them as they are, and types the data from them.
    const data = await client().fetchQuery(options);
    expectTypeOf(data.data[0]!['orders.status']).toEqualTypeOf<string | number | boolean | null>();
  });
});
