// @vitest-environment node
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTINUE_WAIT, FILTER_OPERATORS, type Filter, type FilterOperator } from '../../../src/core/protocol/data';
import {
  DATA_REFERENCE_DAY,
  LAST_ORDER_DAY,
  ORDER_COUNT,
  SLOW_QUERY_HEADER,
  WORLD,
  createManualClock,
  type ChartWidgetConfig,
} from '../../../src/emulator';
import { useEmulator } from '../../helpers/emulator';
import { dataToken, loadData, postData, sqlRows } from './helpers';

let token: string;

// 2025-07-15 12:00 UTC; relative date ranges ignore it: they resolve against the data end, 2025-12-31.
const emulator = useEmulator({ clock: createManualClock(Date.UTC(2025, 6, 15, 12)) });

beforeAll(async () => {
  token = await dataToken();
});

async function sqlCount(where: string, sqlToken = token): Promise<number> {
  const rows = await sqlRows(emulator, sqlToken, `SELECT COUNT(*) FROM orders WHERE ${where}`);
  return Number(rows[0]?.[0]);
}

async function loadCount(filters: Filter[], loadToken = token, extra: Record<string, unknown> = {}): Promise<number> {
  const result = await loadData(emulator, loadToken, { measures: ['orders.count'], filters, ...extra });
  return Number(result.data[0]?.['orders.count'] ?? 0);
}

describe('behaviour 3 /v1/meta', () => {
  it('3 meta lists the views with measures (type, aggType) and dimensions (type)', async () => {
    const response = await fetch(`${emulator.dataUrl}/v1/meta`, { headers: { authorization: token } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      cubes: {
        name: string;
        type: string;
        measures: { name: string; type: string; aggType: string; title: string; shortTitle: string }[];
        dimensions: { name: string; type: string }[];
        segments: unknown[];
      }[];
    };
    expect(body.cubes.map((cube) => cube.name)).toEqual(['orders', 'customers', 'products']);
    const orders = body.cubes[0]!;
    expect(orders.type).toBe('view');
    expect(orders.segments).toEqual([]);
    expect(orders.measures.find((measure) => measure.name === 'orders.total_revenue')).toMatchObject({
      type: 'number',
      aggType: 'sum',
      title: 'Total revenue',
      shortTitle: 'Revenue',
    });
    expect(orders.measures.map((measure) => measure.name)).toEqual(
      expect.arrayContaining(['orders.count', 'orders.average_order_value', 'orders.customers_count']),
    );
    expect(orders.dimensions.find((dimension) => dimension.name === 'orders.created_at')?.type).toBe('time');
    expect(orders.dimensions.find((dimension) => dimension.name === 'orders.status')?.type).toBe('string');
  });
});

describe('behaviour 3 /v1/cubesql', () => {
  it('3 cubesql: schema line first, then data lines of string values, served as NDJSON', async () => {
    const result = await postData(
      emulator,
      '/v1/cubesql',
      { query: 'SELECT id, status, amount, created_at FROM orders ORDER BY id LIMIT 3' },
      { token },
    );
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toContain('ndjson');
    const [schema, ...rest] = result.lines();
    expect(schema).toEqual({
      schema: [
        { name: 'id', column_type: 'Int64' },
        { name: 'status', column_type: 'String' },
        { name: 'amount', column_type: 'Double' },
        { name: 'created_at', column_type: 'Timestamp' },
      ],
      lastRefreshTime: expect.any(String),
    });
    const rows = rest.flatMap((line) => line['data'] as unknown[][]);
    expect(rows).toHaveLength(3);
    expect(rows[0]?.[0]).toBe('1');
    for (const row of rows) for (const cell of row) expect(typeof cell).toBe('string');
    expect(rows[0]?.[3]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
  });

  it('3 cubesql: SQL NULL is null, other values strings', async () => {
    const [row] = await sqlRows(
      emulator,
      token,
      'SELECT CAST(NULL AS VARCHAR) AS nothing, 1 AS one, TRUE AS yes, 12345678901234567890 AS big',
    );
    expect(row).toEqual([null, '1', 'true', '12345678901234567890']);
    const [measured] = await sqlRows(
      emulator,
      token,
      'SELECT MEASURE(orders.count) + 12345678901234567890 AS big FROM orders',
    );
    expect(measured).toEqual([String(12345678901234567890n + BigInt(ORDER_COUNT))]);
  });

  it('3 cubesql: a large result comes in several data lines of 1,000 rows (load all rows)', async () => {
    const result = await postData(emulator, '/v1/cubesql', { query: 'SELECT id FROM orders ORDER BY id' }, { token });
    const lines = result.lines();
    const data = lines.slice(1).map((line) => line['data'] as string[][]);
    expect(data).toHaveLength(ORDER_COUNT / 1000);
    for (const chunk of data) expect(chunk).toHaveLength(1000);
    expect(data.flat().length).toBe(ORDER_COUNT);
    expect(data.at(-1)?.at(-1)).toEqual([String(ORDER_COUNT)]);
  });

  it('3 cubesql: the body is a real stream (the schema can be read and the rest cancelled)', async () => {
    const response = await fetch(`${emulator.dataUrl}/v1/cubesql`, {
      method: 'POST',
      headers: { authorization: token },
      body: JSON.stringify({ query: 'SELECT * FROM orders' }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(JSON.parse(text.slice(0, text.indexOf('\n')))).toHaveProperty('schema');
    await reader.cancel();
    // The emulator keeps serving after a client walked away mid-stream.
    expect(await sqlRows(emulator, token, 'SELECT COUNT(*) FROM products')).toEqual([['200']]);
  });

  it('3 cubesql: MEASURE(view.measure) is the measure aggregate, grouped like /v1/load', async () => {
    const rows = await sqlRows(
      emulator,
      token,
      'SELECT status, MEASURE(orders.count) AS n, MEASURE(orders.total_revenue) AS revenue FROM orders GROUP BY 1 ORDER BY 1',
    );
    const load = await loadData(emulator, token, {
      measures: ['orders.count', 'orders.total_revenue'],
      dimensions: ['orders.status'],
      order: { 'orders.status': 'asc' },
    });
    expect(rows).toEqual(
      load.data.map((row) => [row['orders.status'], row['orders.count'], row['orders.total_revenue']]),
    );
    expect(rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(ORDER_COUNT);
  });

  it('3 cubesql: MEASURE() through an alias, unqualified, inside expressions; default column name', async () => {
    const result = await postData(
      emulator,
      '/v1/cubesql',
      {
        query:
          'SELECT MEASURE(o.count), MEASURE(customers_count) AS buyers, MEASURE(o.total_revenue) / MEASURE(o.count) AS aov, MEASURE(o.average_order_value) AS avg FROM orders AS o',
      },
      { token },
    );
    const [schema, data] = result.lines();
    expect((schema!['schema'] as { name: string }[]).map((column) => column.name)).toEqual([
      'measure(o.count)',
      'buyers',
      'aov',
      'avg',
    ]);
    const [count, buyers, aov, avg] = (data!['data'] as string[][])[0]!;
    expect(count).toBe(String(ORDER_COUNT));
    expect(Number(buyers)).toBeGreaterThan(1000);
    expect(Number(aov)).toBeCloseTo(Number(avg), 6);
  });

  it('3 cubesql: SQL errors are an {"error"} line of a 200 stream', async () => {
    for (const query of [
      'SELECT no_such_column FROM orders',
      'SELECT * FROM raw.orders',
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM '/etc/passwd'",
      'DROP TABLE orders',
      'SELECT 1; SELECT 2',
      'SELECT MEASURE(orders.nope) FROM orders',
      'SELEC oops',
    ]) {
      const result = await postData(emulator, '/v1/cubesql', { query }, { token });
      expect(result.status, query).toBe(200);
      const lines = result.lines();
      expect(lines.at(-1), query).toEqual({ error: expect.any(String) });
      expect(
        lines.some((line) => 'data' in line),
        query,
      ).toBe(false);
    }
  });

  it('3 cubesql: a query that fails while running sends the schema, then an {"error"} line, never a truncated result', async () => {
    const result = await postData(
      emulator,
      '/v1/cubesql',
      {
        query:
          "SELECT CASE WHEN n > 1000000 THEN error('row 1000001 failed') ELSE n END AS n FROM range(1, 3000000) AS t(n)",
      },
      { token },
    );
    expect(result.status).toBe(200);
    const lines = result.lines();
    expect(lines[0]).toHaveProperty('schema');
    expect(lines.at(-1)).toEqual({ error: expect.stringContaining('row 1000001 failed') });
  });

  it('3 cubesql: timezone shows time dimensions in that zone', async () => {
    const utc = await sqlRows(emulator, token, 'SELECT created_at FROM orders WHERE id = 1');
    const tokyo = await postData(
      emulator,
      '/v1/cubesql',
      { query: 'SELECT created_at FROM orders WHERE id = 1', timezone: 'Asia/Tokyo' },
      { token },
    );
    const shifted = (tokyo.lines()[1]!['data'] as string[][])[0]![0]!;
    expect(Date.parse(`${shifted}Z`) - Date.parse(`${utc[0]![0]}Z`)).toBe(9 * 3600 * 1000);
  });

  it('3 cubesql: a body without query or with an unknown timezone is a 400 user error', async () => {
    for (const body of [{}, { query: '' }, { query: 'SELECT 1', timezone: 'Mars/Olympus' }]) {
      const result = await postData(emulator, '/v1/cubesql', body, { token });
      expect(result.status).toBe(400);
      expect(result.json()).toEqual({ type: 'UserError', error: expect.any(String) });
    }
  });
});

describe('behaviour 3 /v1/load', () => {
  const cases: [FilterOperator, Filter, string][] = [
    [
      'equals',
      { member: 'orders.status', operator: 'equals', values: ['completed', 'shipped'] },
      "status IN ('completed', 'shipped')",
    ],
    [
      'notEquals',
      { member: 'orders.status', operator: 'notEquals', values: ['completed'] },
      "status <> 'completed' OR status IS NULL",
    ],
    [
      'contains',
      { member: 'orders.customer_name', operator: 'contains', values: ['MÜLLER'] },
      "customer_name ILIKE '%müller%'",
    ],
    [
      'notContains',
      { member: 'orders.customer_name', operator: 'notContains', values: ['a'] },
      "customer_name NOT ILIKE '%a%'",
    ],
    [
      'startsWith',
      { member: 'orders.customer_name', operator: 'startsWith', values: ['Ada', 'Ben'] },
      "customer_name LIKE 'Ada%' OR customer_name LIKE 'Ben%'",
    ],
    ['endsWith', { member: 'orders.product_name', operator: 'endsWith', values: ['7'] }, "product_name LIKE '%7'"],
    ['gt', { member: 'orders.amount', operator: 'gt', values: ['500'] }, 'amount > 500'],
    ['gte', { member: 'orders.amount', operator: 'gte', values: ['500'] }, 'amount >= 500'],
    ['lt', { member: 'orders.amount', operator: 'lt', values: ['20'] }, 'amount < 20'],
    ['lte', { member: 'orders.quantity', operator: 'lte', values: ['2'] }, 'quantity <= 2'],
    ['set', { member: 'orders.amount', operator: 'set' }, 'amount IS NOT NULL'],
    ['notSet', { member: 'orders.amount', operator: 'notSet' }, 'amount IS NULL'],
    [
      'inDateRange',
      { member: 'orders.created_at', operator: 'inDateRange', values: ['2025-03-01', '2025-03-31'] },
      "created_at >= '2025-03-01' AND created_at < '2025-04-01'",
    ],
    [
      'notInDateRange',
      { member: 'orders.created_at', operator: 'notInDateRange', values: ['2025-03-01', '2025-03-31'] },
      "NOT (created_at >= '2025-03-01' AND created_at < '2025-04-01')",
    ],
    [
      'beforeDate',
      { member: 'orders.created_at', operator: 'beforeDate', values: ['2024-06-01'] },
      "created_at < '2024-06-01'",
    ],
    [
      'afterDate',
      { member: 'orders.created_at', operator: 'afterDate', values: ['2025-06-30'] },
      // After the day: the day itself belongs to beforeOrOnDate.
      "created_at >= '2025-07-01'",
    ],
    [
      'notStartsWith',
      { member: 'orders.customer_name', operator: 'notStartsWith', values: ['Ada', 'Ben'] },
      "NOT (customer_name ILIKE 'Ada%' OR customer_name ILIKE 'Ben%')",
    ],
    [
      'notEndsWith',
      { member: 'orders.product_name', operator: 'notEndsWith', values: ['7'] },
      "product_name NOT LIKE '%7'",
    ],
    [
      'afterOrOnDate',
      { member: 'orders.created_at', operator: 'afterOrOnDate', values: ['2025-06-30'] },
      "created_at >= '2025-06-30'",
    ],
    // "On" the date keeps its whole day.
    [
      'beforeOrOnDate',
      { member: 'orders.created_at', operator: 'beforeOrOnDate', values: ['2024-06-01'] },
      "created_at < '2024-06-02'",
    ],
  ];

  it('3 load: the tests cover every documented filter operator', () => {
    expect(new Set(cases.map(([operator]) => operator))).toEqual(new Set(FILTER_OPERATORS));
  });

  for (const [operator, filter, where] of cases) {
    it(`3 load filter ${operator}: same rows as the SQL condition`, async () => {
      const expected = await sqlCount(where);
      expect(await loadCount([filter])).toBe(expected);
      if (operator === 'set') expect(expected).toBe(ORDER_COUNT);
      else if (operator === 'notSet') expect(expected).toBe(0);
      else {
        expect(expected).toBeGreaterThan(0);
        expect(expected).toBeLessThan(ORDER_COUNT);
      }
    });
  }

  it('3 load filters: and / or groups, and filters on measures (HAVING)', async () => {
    const either = await loadCount([
      {
        or: [
          { member: 'orders.region', operator: 'equals', values: ['EMEA'] },
          { member: 'orders.status', operator: 'equals', values: ['returned'] },
        ],
      },
    ]);
    expect(either).toBe(await sqlCount("region = 'EMEA' OR status = 'returned'"));
    const both = await loadCount([
      {
        and: [
          { member: 'orders.region', operator: 'equals', values: ['EMEA'] },
          { member: 'orders.status', operator: 'equals', values: ['returned'] },
        ],
      },
    ]);
    expect(both).toBe(await sqlCount("region = 'EMEA' AND status = 'returned'"));
    const big = await loadData(emulator, token, {
      measures: ['orders.count'],
      dimensions: ['orders.customer_name'],
      filters: [{ member: 'orders.count', operator: 'gt', values: ['200'] }],
    });
    const expected = await sqlRows(
      emulator,
      token,
      'SELECT customer_name FROM orders GROUP BY 1 HAVING COUNT(*) > 200',
    );
    expect(big.data).toHaveLength(expected.length);
    for (const row of big.data) expect(Number(row['orders.count'])).toBeGreaterThan(200);
  });

  it('3 load: response is {query, data (strings), annotation, lastRefreshTime}', async () => {
    const result = await loadData(emulator, token, { measures: ['orders.count'], dimensions: ['orders.status'] });
    expect(result).toMatchObject({
      query: { measures: ['orders.count'], dimensions: ['orders.status'], timezone: 'UTC', limit: 10000 },
      annotation: {
        measures: { 'orders.count': { title: expect.any(String), shortTitle: 'Count', type: 'number' } },
        dimensions: { 'orders.status': { type: 'string' } },
        segments: {},
        timeDimensions: {},
      },
      lastRefreshTime: expect.any(String),
    });
    expect(result.data).toHaveLength(5);
    for (const row of result.data) {
      expect(Object.keys(row).sort()).toEqual(['orders.count', 'orders.status']);
      expect(typeof row['orders.count']).toBe('string');
    }
    // Default order: the first measure, descending.
    const counts = result.data.map((row) => Number(row['orders.count']));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('3 load timeDimensions: each granularity groups the rows, values under both keys', async () => {
    const expectations: [string, number][] = [
      ['year', 2],
      ['quarter', 8],
      ['month', 24],
    ];
    for (const [granularity, count] of expectations) {
      const result = await loadData(emulator, token, {
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity }],
      });
      expect(result.data, granularity).toHaveLength(count);
      expect(result.data.reduce((sum, row) => sum + Number(row['orders.count']), 0)).toBe(ORDER_COUNT);
      expect(result.data[0]).toMatchObject({
        [`orders.created_at.${granularity}`]: '2024-01-01T00:00:00.000',
        'orders.created_at': '2024-01-01T00:00:00.000',
      });
    }
    const days = await loadData(emulator, token, {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2025-01-01', '2025-01-31'] }],
    });
    expect(days.data).toHaveLength(31);
    expect(days.data.map((row) => row['orders.created_at.day'])).toEqual(
      days.data.map((row) => row['orders.created_at.day']).sort(),
    );
    const weeks = await loadData(emulator, token, {
      measures: ['orders.count'],
      timeDimensions: [
        { dimension: 'orders.created_at', granularity: 'week', dateRange: ['2025-01-01', '2025-03-31'] },
      ],
    });
    for (const row of weeks.data) expect(new Date(`${row['orders.created_at.week']}Z`).getUTCDay()).toBe(1);
    const hours = await loadData(emulator, token, {
      measures: ['orders.count'],
      timeDimensions: [
        { dimension: 'orders.created_at', granularity: 'hour', dateRange: ['2025-06-01', '2025-06-01'] },
      ],
    });
    expect(hours.data.length).toBeGreaterThan(12);
    expect(hours.data.length).toBeLessThanOrEqual(24);
  });

  it('3 load dateRange: explicit bounds are inclusive days; relative ranges resolve against the data end 2025-12-31', async () => {
    const range = async (dateRange: unknown) =>
      Number(
        (
          await loadData(emulator, token, {
            measures: ['orders.count'],
            timeDimensions: [{ dimension: 'orders.created_at', dateRange }],
          })
        ).data[0]?.['orders.count'],
      );
    expect(await range(['2025-06-01', '2025-06-30'])).toBe(
      await sqlCount("created_at >= '2025-06-01' AND created_at < '2025-07-01'"),
    );
    // The clock says 2025-07-15; the data ends 2025-12-31 (DATA_REFERENCE_DAY), which is "today".
    expect(DATA_REFERENCE_DAY).toBe(LAST_ORDER_DAY);
    expect(await range('last month')).toBe(await range(['2025-11-01', '2025-11-30']));
    expect(await range('last 3 months')).toBe(await range(['2025-09-01', '2025-11-30']));
    expect(await range('last 6 months')).toBe(await range(['2025-06-01', '2025-11-30']));
    expect(await range('last quarter')).toBe(await range(['2025-07-01', '2025-09-30']));
    expect(await range('this quarter')).toBe(await range(['2025-10-01', '2025-12-31']));
    expect(await range('this year')).toBe(await range(['2025-01-01', '2025-12-31']));
    expect(await range('last year')).toBe(await range(['2024-01-01', '2024-12-31']));
    expect(await range('today')).toBe(await range(['2025-12-31', '2025-12-31']));
    expect(await range('yesterday')).toBe(await range(['2025-12-30', '2025-12-30']));
    for (const relative of ['last 6 months', 'this year', 'last quarter', 'today'])
      expect(await range(relative), relative).toBeGreaterThan(0);
  });

  it('3 load timezone: days and date ranges are local to the query time zone', async () => {
    const query = (timezone: string) =>
      loadData(emulator, token, {
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2025-01-01', '2025-01-01'] }],
        timezone,
      });
    const tokyo = Number((await query('Asia/Tokyo')).data[0]?.['orders.count']);
    expect(tokyo).toBe(await sqlCount("created_at >= '2024-12-31 15:00:00' AND created_at < '2025-01-01 15:00:00'"));
    expect(tokyo).not.toBe(Number((await query('UTC')).data[0]?.['orders.count']));
  });

  it('3 load order, limit, offset (object and pair forms)', async () => {
    const base = { measures: ['orders.total_revenue'], dimensions: ['orders.customer_name'] };
    const top = await loadData(emulator, token, { ...base, order: { 'orders.total_revenue': 'desc' }, limit: 6 });
    const page = await loadData(emulator, token, {
      ...base,
      order: [['orders.total_revenue', 'desc']],
      limit: 2,
      offset: 2,
    });
    expect(page.data).toEqual(top.data.slice(2, 4));
    const revenues = top.data.map((row) => Number(row['orders.total_revenue']));
    expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
    const ascending = await loadData(emulator, token, {
      dimensions: ['orders.status'],
      order: { 'orders.status': 'asc' },
    });
    expect(ascending.data.map((row) => row['orders.status'])).toEqual([
      'cancelled',
      'completed',
      'processing',
      'returned',
      'shipped',
    ]);
    const many = await loadData(emulator, token, { dimensions: ['orders.id'] });
    expect(many.data).toHaveLength(10_000);
  });

  it('3 load multi: an array with queryType "multi" answers {queryType: "blendingQuery", results} in query order', async () => {
    const first = { measures: ['orders.count'] };
    const second = { measures: ['products.count'], dimensions: ['products.category'] };
    const result = await postData(emulator, '/v1/load', { queryType: 'multi', query: [first, second] }, { token });
    expect(result.status).toBe(200);
    const body = result.json() as { queryType: string; results: { data: Record<string, string>[] }[] };
    expect(body.queryType).toBe('blendingQuery');
    expect(body.results).toHaveLength(2);
    expect(body.results[0]!.data).toEqual((await loadData(emulator, token, first)).data);
    expect(body.results[1]!.data).toEqual((await loadData(emulator, token, second)).data);
  });

  it('3 load user errors are 400 {"type":"UserError","error"}', async () => {
    const bad: unknown[] = [
      { query: { measures: ['orders.nope'] } },
      { query: { measures: ['orders.count', 'products.count'] } },
      {
        query: { measures: ['orders.count'], filters: [{ member: 'orders.status', operator: 'like', values: ['x'] }] },
      },
      { query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.status', granularity: 'day' }] } },
      {
        query: {
          measures: ['orders.count'],
          timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'sometime soon' }],
        },
      },
      { query: { measures: ['orders.count'], order: { 'orders.status': 'asc' } } },
      { query: [{ measures: ['orders.count'] }] },
      { query: {} },
      { nothing: true },
    ];
    for (const body of bad) {
      const result = await postData(emulator, '/v1/load', body, { token });
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.json()).toEqual({ type: 'UserError', error: expect.any(String) });
    }
  });

  it('3 load: every chart widget query of the world dashboards runs', async () => {
    const queries = WORLD.workbooks.flatMap((workbook) =>
      (workbook.dashboard?.config.widgets ?? [])
        .filter((widget) => widget.type === 'CHART')
        .map((widget) => (widget.config as ChartWidgetConfig).query),
    );
    expect(queries.length).toBeGreaterThan(4);
    for (const query of queries) expect((await loadData(emulator, token, query)).data.length).toBeGreaterThan(0);
  });
});

describe('behaviour 3 Continue wait', () => {
  it('3 a request marked slow answers 200 {"error":"Continue wait"} N times, then the data', async () => {
    const body = { query: { measures: ['orders.count'], dimensions: ['orders.region'] } };
    const headers = { [SLOW_QUERY_HEADER]: '2' };
    for (let attempt = 0; attempt < 2; attempt++) {
      const waiting = await postData(emulator, '/v1/load', body, { token, headers });
      expect(waiting.status).toBe(200);
      expect(waiting.json()).toEqual({ error: CONTINUE_WAIT });
    }
    const done = await postData(emulator, '/v1/load', body, { token, headers });
    expect(done.status).toBe(200);
    expect((done.json() as { data: unknown[] }).data).toHaveLength(4);
  });

  it('3 Continue wait also holds for /v1/cubesql', async () => {
    const body = { query: 'SELECT COUNT(*) FROM customers' };
    const headers = { [SLOW_QUERY_HEADER]: '1' };
    expect((await postData(emulator, '/v1/cubesql', body, { token, headers })).json()).toEqual({
      error: CONTINUE_WAIT,
    });
    const done = await postData(emulator, '/v1/cubesql', body, { token, headers });
    expect(done.lines()[1]).toEqual({ data: [['5000']] });
  });
});

describe('behaviour 3 row-level security', () => {
  it('3 RLS: two tokens with different region attributes see different totals that add up', async () => {
    const total = await loadCount([]);
    expect(total).toBe(ORDER_COUNT);
    const perRegion: number[] = [];
    for (const region of ['NA', 'EMEA', 'APAC', 'LATAM']) {
      const regional = await dataToken({ userAttributes: { region } });
      const count = await loadCount([], regional);
      expect(count).toBe(await sqlCount(`region = '${region}'`));
      perRegion.push(count);
    }
    expect(new Set(perRegion).size).toBe(4);
    expect(perRegion.reduce((sum, count) => sum + count, 0)).toBe(total);
  });

  it('3 RLS: attributes from userAttributes lists, securityContext and top-level claims', async () => {
    const apac = await loadCount([], await dataToken({ userAttributes: [{ name: 'region', value: 'APAC' }] }));
    expect(apac).toBe(await sqlCount("region = 'APAC'"));
    const americas = await loadCount([], await dataToken({ securityContext: { allowed_regions: ['NA', 'LATAM'] } }));
    expect(americas).toBe(await sqlCount("region IN ('NA', 'LATAM')"));
    const stores = await loadCount([], await dataToken({ allowed_store_ids: [1, 2, 6] }));
    expect(stores).toBe(await sqlCount('store_id IN (1, 2, 6)'));
    const combined = await loadCount([], await dataToken({ region: 'NA', allowed_store_ids: [1, 6] }));
    expect(combined).toBe(await sqlCount("region = 'NA' AND store_id IN (1, 6)"));
  });

  it('3 RLS applies to /v1/cubesql too and cannot be widened by SQL', async () => {
    const emea = await dataToken({ userAttributes: { region: 'EMEA' } });
    const [[count]] = (await sqlRows(emulator, emea, 'SELECT COUNT(*) FROM orders')) as [[string]];
    expect(Number(count)).toBe(await loadCount([], emea));
    expect(await sqlRows(emulator, emea, "SELECT COUNT(*) FROM orders WHERE region = 'NA'")).toEqual([['0']]);
    expect(await sqlRows(emulator, emea, 'SELECT DISTINCT region FROM customers')).toEqual([['EMEA']]);
  });

  it('3 RLS: an unusable attribute value sees no rows; null does not restrict', async () => {
    expect(await loadCount([], await dataToken({ securityContext: { region: { any: 'thing' } } }))).toBe(0);
    expect(await loadCount([], await dataToken({ userAttributes: { allowed_regions: [] } }))).toBe(0);
    expect(await loadCount([], await dataToken({ userAttributes: { region: null } }))).toBe(ORDER_COUNT);
  });
});
