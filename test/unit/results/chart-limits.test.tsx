import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHART_LIMITS, ResultChart, type ChartLimits } from '../../../src';
import { resolveChartLimits } from '../../../src/components/results/chart-limits';
import { isPlainColor, sanitizeSpec } from '../../../src/components/results/chart-sanitize';
import { toResultTable } from '../../../src/core/protocol/tools';
import { sqlToolCall } from '../../fixtures/sql-tool-calls';

const call = sqlToolCall('ordersByStatus');
const table = call.status === 'complete' ? toResultTable(call.result)! : undefined!;
const rows = {
  columns: ['status', 'orders'],
  records: [
    { status: 'a', orders: 1 },
    { status: 'b', orders: 5 },
  ],
};
const BARS = { mark: 'bar', encoding: { x: { field: 'status' }, y: { field: 'orders' } } };

describe('chart limits', () => {
  it('are named, exported defaults', () => {
    expect(DEFAULT_CHART_LIMITS).toEqual({
      maxSpecLength: 1_000_000,
      maxSpecDepth: 64,
      maxRows: 10_000,
      maxGeneratedValues: 100_000,
      maxStringLength: 100_000,
      maxSize: 4_000,
      maxViews: 100,
      maxBins: 200,
    } satisfies ChartLimits);
    expect(Object.isFrozen(DEFAULT_CHART_LIMITS)).toBe(true);
    expect(resolveChartLimits({ maxRows: 3, maxViews: -1 })).toEqual({ ...DEFAULT_CHART_LIMITS, maxRows: 3 });
  });

  it('are overridable through the limits prop: a result past maxRows shows the error card, unread', () => {
    render(<ResultChart spec={{ mark: 'bar' }} columns={table.columns} rows={table.rows} limits={{ maxRows: 2 }} />);
    expect(screen.getByRole('alert').textContent).toContain('the result has 5 rows, more than 2');
  });
});

describe('isPlainColor', () => {
  it.each([
    '#abc',
    '#aabbcc80',
    'steelblue',
    'transparent',
    'currentColor',
    'rgb(1, 2, 3)',
    'rgba(1 2 3 / 50%)',
    'hsl(120deg 50% 50%)',
  ])('accepts %s', (color) => expect(isPlainColor(color)).toBe(true));
  it.each([
    'url(https://evil.test/a.svg#p)',
    '\\75rl(https://evil.test/a.svg#p)',
    'URL(x)',
    'red url(x)',
    'rgb(url(x))',
    'var(--x)',
    'image-set("x.png" 1x)',
    '#abcg',
    '',
    'a'.repeat(200),
  ])('refuses %s', (color) => expect(isPlainColor(color)).toBe(false));
});

describe('sanitizeSpec', () => {
  it('keeps plain colours and gradients of them, drops everything else where a colour goes', () => {
    const clean = sanitizeSpec(
      {
        ...BARS,
        mark: { type: 'bar', fill: 'url(x)', stroke: '#123', cursor: 'url(c.png), auto' },
        encoding: {
          ...BARS.encoding,
          color: { field: 'status', scale: { range: ['url(a)', 'red'] }, condition: { test: 'true', value: 'url(b)' } },
          fill: { datum: 'x', scale: null },
        },
        background: {
          gradient: 'linear',
          stops: [
            { offset: 0, color: 'red' },
            { offset: 1, color: 'blue' },
          ],
        },
        config: {
          view: { fill: { expr: "'url(x)'" } },
          range: { category: ['red', 'url(y)'] },
          locale: { number: {} },
        },
        params: [
          { name: 'cursor', value: 'url(z)' },
          { name: 'p', value: 1 },
        ],
      },
      rows,
      DEFAULT_CHART_LIMITS,
    );
    expect(clean).toEqual({
      ...BARS,
      mark: { type: 'bar', stroke: '#123' },
      encoding: { ...BARS.encoding, color: { field: 'status', scale: {} }, fill: { datum: 'x' } },
      background: {
        gradient: 'linear',
        stops: [
          { offset: 0, color: 'red' },
          { offset: 1, color: 'blue' },
        ],
      },
      config: { view: {}, range: {} },
      params: [{ name: 'p', value: 1 }],
    });
  });

  it('caps sizes, steps, bins and ticks', () => {
    const clean = sanitizeSpec(
      {
        ...BARS,
        width: 1e7,
        height: { step: 1e7 },
        encoding: {
          x: { field: 'orders', bin: { maxbins: 1e9, step: 1e-9 }, axis: { tickCount: 1e7, format: '01000000000d' } },
        },
      },
      rows,
      DEFAULT_CHART_LIMITS,
    );
    expect(clean).toEqual({
      ...BARS,
      width: 4000,
      height: { step: 200 },
      encoding: { x: { field: 'orders', bin: { maxbins: 200 }, axis: { tickCount: 200 } } },
    });
    // A step that makes few bins over the column's extent stays.
    expect(
      sanitizeSpec({ mark: 'bar', encoding: { x: { field: 'orders', bin: { step: 1 } } } }, rows, DEFAULT_CHART_LIMITS),
    ).toEqual({ mark: 'bar', encoding: { x: { field: 'orders', bin: { step: 1 } } } });
  });

  it('counts views: facets over columns by their values, repeats, concats and layers', () => {
    const limits = { ...DEFAULT_CHART_LIMITS, maxViews: 3 };
    expect(() =>
      sanitizeSpec({ ...BARS, encoding: { ...BARS.encoding, facet: { field: 'status' } } }, rows, limits),
    ).not.toThrow();
    expect(() => sanitizeSpec({ repeat: ['a', 'b', 'c', 'd'], spec: BARS }, rows, limits)).toThrow(/more than 3 views/);
    expect(() => sanitizeSpec({ layer: [BARS, BARS], concat: [BARS, BARS] }, rows, limits)).toThrow(
      /more than 3 views/,
    );
    expect(() => sanitizeSpec({ facet: { field: 'made' }, spec: BARS }, rows, limits)).toThrow(
      /not a column of the result/,
    );
  });
});
