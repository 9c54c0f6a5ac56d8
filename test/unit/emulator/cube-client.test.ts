// @vitest-environment node
/**
 * The emulator answers a real, published client of the data API. The service's data
 * API is Cube-compatible, so `@cubejs-client/core` pointed at `{data_url}/v1` is what a partner's
 * app already uses: every call here goes through it, as that app would make it.
 */
import cube, { type Query } from '@cubejs-client/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORDER_COUNT, ORDER_STATUSES, SLOW_QUERY_HEADER } from '../../../src/emulator';
import { useEmulator } from '../../helpers/emulator';
import { dataToken, loadData, sqlRows } from './helpers';

let token: string;

const emulator = useEmulator();

beforeAll(async () => {
  token = await dataToken();
});

function client(options: { method?: 'GET' | 'POST'; headers?: Record<string, string> } = {}) {
  return cube(token, { apiUrl: `${emulator.dataUrl}/v1`, ...options });
}

describe('@cubejs-client/core against the emulator', () => {
  it('load() over GET with queryType=multi: a regularQuery the client pivots', async () => {
    const resultSet = await client().load({ measures: ['orders.count'], dimensions: ['orders.status'] });
    const rows = resultSet.tablePivot();
    expect(rows).toHaveLength(ORDER_STATUSES.length);
    expect(rows.reduce((sum, row) => sum + Number(row['orders.count']), 0)).toBe(ORDER_COUNT);
    expect(resultSet.rawData()).toEqual(
      (await loadData(emulator, token, { measures: ['orders.count'], dimensions: ['orders.status'] })).data,
    );
    expect(resultSet.serialize().loadResponse).toMatchObject({
      queryType: 'regularQuery',
      pivotQuery: { measures: ['orders.count'], queryType: 'regularQuery' },
      slowQuery: false,
    });
  });

  it('load() over POST (what the client does once the URL grows long) answers the same', async () => {
    const query: Query = {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      order: { 'orders.status': 'asc' },
    };
    const viaGet = await client({ method: 'GET' }).load(query);
    const viaPost = await client({ method: 'POST' }).load(query);
    expect(viaPost.tablePivot()).toEqual(viaGet.tablePivot());
    // A query whose URL passes 2,000 characters: the client switches to POST by itself.
    const long = await client().load({
      measures: ['orders.count'],
      filters: [
        {
          member: 'orders.customer_name',
          operator: 'notEquals',
          values: Array.from({ length: 200 }, (_, index) => `nobody-${index}`),
        },
      ],
    });
    expect(Number(long.tablePivot()[0]?.['orders.count'])).toBe(ORDER_COUNT);
  });

  it('data blending: an array of queries is a blendingQuery whose chartPivot merges both measures by month', async () => {
    const byMonth = (measure: string): Query => ({
      measures: [measure],
      timeDimensions: [
        { dimension: 'orders.created_at', granularity: 'month', dateRange: ['2025-01-01', '2025-06-30'] },
      ],
    });
    const resultSet = await client().load([byMonth('orders.count'), byMonth('orders.total_revenue')]);
    expect(resultSet.serialize().loadResponse).toMatchObject({
      queryType: 'blendingQuery',
      pivotQuery: {
        measures: ['orders.count', 'orders.total_revenue'],
        timeDimensions: [{ dimension: 'time', granularity: 'month' }],
      },
    });
    const points = resultSet.chartPivot();
    expect(points).toHaveLength(6);
    for (const point of points) {
      expect(point['orders.count']).toBeGreaterThan(0);
      expect(point['orders.total_revenue']).toBeGreaterThan(0);
    }
    expect(points[0]?.x).toBe('2025-01-01T00:00:00.000');
  });

  it('every filter operator, nested and/or groups, through the client', async () => {
    const count = async (filters: Query['filters']) =>
      Number((await client().load({ measures: ['orders.count'], filters })).tablePivot()[0]?.['orders.count'] ?? 0);
    const sqlCount = async (where: string) =>
      Number((await sqlRows(emulator, token, `SELECT COUNT(*) FROM orders WHERE ${where}`))[0]?.[0]);
    expect(await count([{ member: 'orders.customer_name', operator: 'notStartsWith', values: ['A'] }])).toBe(
      await sqlCount("customer_name NOT ILIKE 'A%'"),
    );
    expect(await count([{ member: 'orders.product_name', operator: 'notEndsWith', values: ['1'] }])).toBe(
      await sqlCount("product_name NOT LIKE '%1'"),
    );
    expect(await count([{ member: 'orders.created_at', operator: 'afterOrOnDate', values: ['2025-12-01'] }])).toBe(
      await sqlCount("created_at >= '2025-12-01'"),
    );
    expect(await count([{ member: 'orders.created_at', operator: 'beforeOrOnDate', values: ['2024-01-31'] }])).toBe(
      await sqlCount("created_at < '2024-02-01'"),
    );
    const nested = await count([
      {
        or: [
          {
            and: [
              { member: 'orders.region', operator: 'equals', values: ['EMEA'] },
              { member: 'orders.status', operator: 'equals', values: ['returned'] },
            ],
          },
          { member: 'orders.amount', operator: 'gt', values: ['900'] },
        ],
      },
    ]);
    expect(nested).toBe(await sqlCount("(region = 'EMEA' AND status = 'returned') OR amount > 900"));
  });

  it('relative date ranges return rows: the data ends 2025-12-31', async () => {
    for (const dateRange of ['last 6 months', 'this year', 'last quarter']) {
      const resultSet = await client().load({
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.created_at', dateRange }],
      });
      expect(Number(resultSet.tablePivot()[0]?.['orders.count']), dateRange).toBeGreaterThan(0);
    }
  });

  it('"Continue wait" answers are repeated by the client until the data arrives', async () => {
    const resultSet = await client({ headers: { [SLOW_QUERY_HEADER]: '1' } }).load({ measures: ['orders.count'] });
    expect(Number(resultSet.tablePivot()[0]?.['orders.count'])).toBe(ORDER_COUNT);
  });

  it('meta() and cubeSql() work', async () => {
    const meta = await client().meta();
    expect(meta.cubes.map((cubeMeta) => cubeMeta.name)).toEqual(['orders', 'customers', 'products']);
    const sql = await client().cubeSql('SELECT status, MEASURE(orders.count) FROM orders GROUP BY 1 ORDER BY 1');
    expect(sql.data.map((row) => row[0])).toEqual([...ORDER_STATUSES].sort());
  });

  it('a user error reaches the client as its error, with the service text', async () => {
    await expect(client().load({ measures: ['orders.nope'] })).rejects.toThrow(/orders\.nope/);
  });
});
