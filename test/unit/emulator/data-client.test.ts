// @vitest-environment node
import { beforeAll, describe, expect, it } from 'vitest';
import { createDataClient, DataQueryError } from '../../../src/core/data-client';
import { ServiceAuthError } from '../../../src/core/errors';
import { ORDER_COUNT, SLOW_QUERY_HEADER } from '../../../src/emulator';
import { useEmulator } from '../../helpers/emulator';
import { dataToken } from './helpers';

let token: string;

const emulator = useEmulator();

beforeAll(async () => {
  token = await dataToken();
});

describe('createDataClient against the emulator (4.5, behaviour 3)', () => {
  it('sql() reads the whole stream: schema and every row as strings', async () => {
    const client = createDataClient({ url: emulator.dataUrl, token });
    const result = await client.sql('SELECT id, MEASURE(orders.count) AS n FROM orders GROUP BY 1 ORDER BY 1');
    expect(result.schema.map((column) => column.name)).toEqual(['id', 'n']);
    expect(result.rows).toHaveLength(ORDER_COUNT);
    expect(result.rows[0]).toEqual(['1', '1']);
    expect(result.lastRefreshTime).toEqual(expect.any(String));
  });

  it('load() single and multi, and meta()', async () => {
    const client = createDataClient({ url: emulator.dataUrl, token: () => token });
    const single = await client.load({ measures: ['orders.count'] });
    expect(single.data).toEqual([{ 'orders.count': String(ORDER_COUNT) }]);
    const multi = await client.load([{ measures: ['orders.count'] }, { measures: ['products.count'] }]);
    expect(multi.results.map((result) => result.data)).toEqual([
      [{ 'orders.count': String(ORDER_COUNT) }],
      [{ 'products.count': '200' }],
    ]);
    expect((await client.meta()).cubes.map((cube) => cube.name)).toEqual(['orders', 'customers', 'products']);
  });

  it('repeats Continue wait answers until the data arrives', async () => {
    let requests = 0;
    const client = createDataClient({
      url: emulator.dataUrl,
      token,
      continueWait: { delayMs: 1 },
      fetch: (input, init) => {
        requests += 1;
        const headers = new Headers(init?.headers);
        headers.set(SLOW_QUERY_HEADER, '2');
        return fetch(input, { ...init, headers });
      },
    });
    const result = await client.load({ measures: ['customers.count'] });
    expect(result.data).toEqual([{ 'customers.count': '5000' }]);
    expect(requests).toBe(3);
  });

  it('reports an error line as DataQueryError and a refused token as ServiceAuthError 403', async () => {
    const client = createDataClient({ url: emulator.dataUrl, token });
    const failure = await client.sql('SELECT nope FROM orders').catch((error: unknown) => error);
    expect(DataQueryError.isInstance(failure)).toBe(true);
    const refused = await createDataClient({ url: emulator.dataUrl, token: 'not-a-jwt' })
      .meta()
      .catch((error: unknown) => error);
    expect(ServiceAuthError.isInstance(refused)).toBe(true);
    expect((refused as ServiceAuthError).status).toBe(403);
  });
});
