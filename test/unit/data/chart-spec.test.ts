/**
 * The pure halves of the data views: the default chart spec by the result's shape, field names a
 * chart can use and a caller's spec bound to them, the comparison period of a metric, and the
 * browser-side sort of a whole result.
 */
import { describe, expect, it } from 'vitest';
import { bindSpecFields, chartFieldNames, defaultChartSpec } from '../../../src/components/data/chart-spec';
import { comparisonQuery, comparisonRange } from '../../../src/core/data-compare';
import { sortRows } from '../../../src/components/data/sort-rows';
import type { FormatColumn } from '../../../src/core/format-value';

const MONTH: FormatColumn = {
  name: 'orders.created_at.month',
  title: 'Created at',
  type: 'timestamp',
  granularity: 'month',
};
const REGION: FormatColumn = { name: 'orders.region', title: 'Region', type: 'string' };
const STATUS: FormatColumn = { name: 'orders.status', title: 'Status', type: 'string' };
const REVENUE: FormatColumn = { name: 'orders.total_revenue', title: 'Revenue', type: 'number', format: 'currency' };
const COUNT: FormatColumn = { name: 'orders.count', title: 'Count', type: 'number', format: 'number' };

function specOf(columns: FormatColumn[], rowCount = 5) {
  return defaultChartSpec(columns, chartFieldNames(columns), { rowCount }) as {
    mark: { type: string; point?: boolean };
    encoding: Record<
      string,
      { field: string; type: string; title?: string; sort?: string; axis?: { format?: string } }
    >;
  };
}

describe('the default chart spec, by the shape of the result', () => {
  it('a time column: a line of the first number, a series per text value, axes titled and formatted', () => {
    const spec = specOf([MONTH, REGION, REVENUE, COUNT]);
    expect(spec.mark).toEqual({ type: 'line', point: true });
    expect(spec.encoding['x']).toMatchObject({
      field: 'orders_created_at_month',
      type: 'temporal',
      title: 'Created at',
    });
    expect(spec.encoding['x']!.axis).toEqual({ format: '%b %Y' });
    expect(spec.encoding['y']).toMatchObject({
      field: 'orders_total_revenue',
      type: 'quantitative',
      title: 'Revenue',
      axis: { format: '$,.0f' },
    });
    expect(spec.encoding['color']).toMatchObject({ field: 'orders_region', type: 'nominal', title: 'Region' });
    expect(specOf([MONTH, REVENUE], 200).mark).toEqual({ type: 'line', point: false });
  });

  it('one text column: bars, largest first, lying down past eight categories; a second text column stacks', () => {
    const standing = specOf([STATUS, COUNT], 5);
    expect(standing.mark).toEqual({ type: 'bar' });
    expect(standing.encoding['x']).toMatchObject({ field: 'orders_status', type: 'nominal', sort: '-y' });
    expect(standing.encoding['y']).toMatchObject({ field: 'orders_count', type: 'quantitative' });
    const lying = specOf([STATUS, COUNT], 20);
    expect(lying.encoding['y']).toMatchObject({ field: 'orders_status', sort: '-x' });
    expect(lying.encoding['x']).toMatchObject({ field: 'orders_count' });
    expect(specOf([REGION, STATUS, COUNT]).encoding['color']).toMatchObject({ field: 'orders_status' });
  });

  it('two numbers: a scatter plot; one number: one bar; no number: no chart', () => {
    expect(specOf([REVENUE, COUNT]).mark).toEqual({ type: 'point' });
    expect(specOf([REVENUE]).mark).toEqual({ type: 'bar' });
    expect(defaultChartSpec([REGION, STATUS], chartFieldNames([REGION, STATUS]))).toBeUndefined();
  });

  it('field names keep letters, digits and _, and never collide', () => {
    expect(
      chartFieldNames([{ name: 'orders.count' }, { name: 'orders_count' }, { name: 'a-b c' }, { name: '' }]),
    ).toEqual(['orders_count', 'orders_count_2', 'a_b_c', 'column']);
  });

  it("a caller's spec names members as the query does: bound to the chart's fields, encodings titled", () => {
    const spec = {
      mark: 'bar',
      transform: [{ aggregate: [{ op: 'sum', field: 'orders.count', as: 'n' }], groupby: ['orders.status'] }],
      encoding: {
        x: { field: 'orders.status', type: 'nominal' },
        y: { field: 'orders.count', type: 'quantitative', title: 'Orders' },
        tooltip: [{ field: 'orders.count' }, { field: 'n' }],
      },
    };
    const names = new Map([
      ['orders.status', 'orders_status'],
      ['orders.count', 'orders_count'],
    ]);
    const titles = new Map([
      ['orders.status', 'Status'],
      ['orders.count', 'Count'],
    ]);
    expect(JSON.parse(JSON.stringify(bindSpecFields(spec, names, titles)))).toEqual({
      mark: 'bar',
      transform: [{ aggregate: [{ op: 'sum', field: 'orders_count', as: 'n' }], groupby: ['orders_status'] }],
      encoding: {
        x: { field: 'orders_status', type: 'nominal', title: 'Status' },
        y: { field: 'orders_count', type: 'quantitative', title: 'Orders' },
        tooltip: [{ field: 'orders_count', title: 'Count' }, { field: 'n' }],
      },
    });
    // A key named __proto__ stays a key, and changes no prototype.
    const hostile = JSON.parse('{"mark":"bar","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const bound = bindSpecFields(hostile, names, titles);
    expect(Object.keys(bound)).toContain('__proto__');
    expect((bound as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('the comparison period of a metric', () => {
  it('previousPeriod of explicit dates: the same number of days just before', () => {
    expect(comparisonRange(['2025-07-01', '2025-09-30'], 'previousPeriod')).toEqual(['2025-03-31', '2025-06-30']);
    expect(comparisonRange(['2025-03-01', '2025-03-01'], 'previousPeriod')).toEqual(['2025-02-28', '2025-02-28']);
    expect(comparisonRange(['2025-01-01T00:00:00', '2025-01-01T11:59:59.999'], 'previousPeriod')).toEqual([
      '2024-12-31T12:00:00.000',
      '2024-12-31T23:59:59.999',
    ]);
  });

  it('previousYear: the same dates a year earlier (29 February is the 28th)', () => {
    expect(comparisonRange(['2024-02-01', '2024-02-29'], 'previousYear')).toEqual(['2023-02-01', '2023-02-28']);
    expect(comparisonRange('this month', 'previousYear')).toBeUndefined();
  });

  it('relative ranges the data API can name: this month is compared with last month', () => {
    expect(comparisonRange('this month', 'previousPeriod')).toBe('last month');
    expect(comparisonRange('This Quarter', 'previousPeriod')).toBe('last quarter');
    expect(comparisonRange('today', 'previousPeriod')).toBe('yesterday');
    expect(comparisonRange('last 30 days', 'previousPeriod')).toBeUndefined();
    expect(comparisonRange(['2025-02-01', 'nope'], 'previousPeriod')).toBeUndefined();
    expect(comparisonRange('this month', ['2024-01-01', '2024-01-31'])).toEqual(['2024-01-01', '2024-01-31']);
  });

  it('the query moves its first time dimension with a date range, or says why it cannot', () => {
    const query = {
      measures: ['orders.total_revenue'],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this year' }],
    } as const;
    expect(comparisonQuery(query, 'previousPeriod')).toEqual({
      ok: true,
      query: { ...query, timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last year' }] },
    });
    expect(comparisonQuery({ measures: ['orders.count'] }, 'previousPeriod')).toMatchObject({ ok: false });
    expect(comparisonQuery(query, 'previousYear')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/date range/),
    });
  });
});

describe('sorting a whole result in the browser', () => {
  const columns: FormatColumn[] = [
    { name: 'name', type: 'String' },
    { name: 'amount', type: 'Double' },
    { name: 'day', type: 'Timestamp' },
  ];
  const rows = [
    ['item 10', '5', '2025-01-03T00:00:00.000'],
    ['item 9', '40.5', null],
    ['Item 2', null, '2025-01-01T00:00:00.000'],
    ['item 1', '100', '2025-01-02T00:00:00.000'],
  ];
  const order = (column: string, direction: 'asc' | 'desc') =>
    sortRows(columns, rows, { column, direction }, 'en').map((row) => row[0]);

  it('numbers as numbers, dates as dates, text in the locale with numbers in it read as numbers; NULL last', () => {
    expect(order('amount', 'desc')).toEqual(['item 1', 'item 9', 'item 10', 'Item 2']);
    expect(order('amount', 'asc')).toEqual(['item 10', 'item 9', 'item 1', 'Item 2']);
    expect(order('day', 'asc')).toEqual(['Item 2', 'item 1', 'item 10', 'item 9']);
    expect(order('name', 'asc')).toEqual(['item 1', 'Item 2', 'item 9', 'item 10']);
    expect(sortRows(columns, rows, null, 'en')).toBe(rows);
  });
});
