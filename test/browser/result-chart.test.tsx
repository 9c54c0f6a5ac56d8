/**
 * ResultChart in real Chromium: the agent's recorded specs drawn with the rows of `result.data`,
 * the marks checked against those rows, the theme's colours, the skeleton, and bad input.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/styles.css';
import { ResultChart } from '../../src/components/results';
import { DEFAULT_CHART_STYLE } from '../../src/core/protocol/tools';
import type { SqlFixtureName } from '../fixtures/sql-tool-calls';
import { chartHost, fixture, mountChart, settled, unmountChart } from './result-chart-helpers';

afterEach(unmountChart);

function chartOf(name: SqlFixtureName, theme?: 'light' | 'dark') {
  const { result, table } = fixture(name);
  const chart = mountChart(
    <ResultChart spec={result.vegaSpec!} columns={table.columns} rows={table.rows} title={result.queryTitle} />,
    theme,
  );
  return { chart, result };
}

const numberOf = (cell: unknown) => Number(cell);

describe('ResultChart in Chromium', () => {
  it('shows a skeleton of the chart size first, then an SVG of the rows', async () => {
    const { chart } = chartOf('ordersByStatus');
    const skeleton = chart.querySelector<HTMLElement>('.service-result-chart__skeleton');
    expect(skeleton?.getAttribute('aria-busy')).toBe('true');
    // The spec's height (300) plus room for title and axes.
    expect(skeleton!.getBoundingClientRect().height).toBe(360);
    await settled(chart);
    expect(chart.querySelector('.service-result-chart__skeleton')).toBeNull();
    expect(chart.querySelector('svg.marks')).not.toBeNull();
  });

  it('draws one bar per row, heights in proportion to result.data', async () => {
    const { chart, result } = chartOf('ordersByStatus');
    await settled(chart);
    const bars = [...chart.querySelectorAll<SVGGraphicsElement>('g.mark-rect path')];
    expect(bars).toHaveLength(result.data.length);
    const byStatus = new Map(bars.map((bar) => [/Status: (\w+)/.exec(bar.getAttribute('aria-label') ?? '')?.[1], bar]));
    const largest = Math.max(...result.data.map((row) => numberOf(row[1])));
    const tallest = Math.max(...bars.map((bar) => bar.getBBox().height));
    for (const row of result.data) {
      const bar = byStatus.get(String(row[0]));
      expect(bar, String(row[0])).toBeDefined();
      // Labels carry the number as the spec formats it (`,`), heights follow the values.
      expect(bar!.getAttribute('aria-label')).toContain(
        `Orders: ${new Intl.NumberFormat('en-US').format(numberOf(row[1]))}`,
      );
      expect(bar!.getBBox().height / tallest).toBeCloseTo(numberOf(row[1]) / largest, 2);
    }
  });

  it('draws a line with one point per month, in date order, highest revenue highest', async () => {
    const { chart, result } = chartOf('revenueByMonth');
    await settled(chart);
    const points = [...chart.querySelectorAll<SVGGraphicsElement>('g.mark-symbol path')];
    expect(points).toHaveLength(result.data.length);
    const centres = points.map((point) => {
      const box = point.getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2, label: point.getAttribute('aria-label') ?? '' };
    });
    const xs = centres.map((centre) => centre.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    // Dates were read as dates: the labels name the months of the rows (local time, as sent).
    expect(centres[0]!.label).toContain('Jan 2025');
    expect(centres.at(-1)!.label).toContain('Dec 2025');
    const revenues = result.data.map((row) => numberOf(row[1]));
    const highest = revenues.indexOf(Math.max(...revenues));
    const lowest = revenues.indexOf(Math.min(...revenues));
    expect(Math.min(...centres.map((centre) => centre.y))).toBe(centres[highest]!.y);
    expect(Math.max(...centres.map((centre) => centre.y))).toBe(centres[lowest]!.y);
    expect(chart.querySelector('path.mark-line, g.mark-line path')).not.toBeNull();
  });

  it('draws one arc per region', async () => {
    const { chart, result } = chartOf('revenueByRegion');
    await settled(chart);
    const arcs = [...chart.querySelectorAll('g.mark-arc path')];
    expect(arcs).toHaveLength(result.data.length);
    for (const row of result.data)
      expect(arcs.some((arc) => arc.getAttribute('aria-label')?.includes(`Region: ${String(row[0])}`))).toBe(true);
  });

  it('uses the official label colour in light mode and the theme text colour in dark mode', async () => {
    const light = chartOf('ordersByStatus', 'light');
    await settled(light.chart);
    const labelFill = (chart: HTMLElement) => chart.querySelector('g.role-axis-label text')!.getAttribute('fill');
    expect(labelFill(light.chart)?.toLowerCase()).toBe(DEFAULT_CHART_STYLE.labelColor.toLowerCase());
    expect(light.chart.querySelector('g.role-axis-label text')!.getAttribute('font-family')).toBe(
      DEFAULT_CHART_STYLE.font,
    );
    const dark = chartOf('ordersByStatus', 'dark');
    await settled(dark.chart);
    const text = getComputedStyle(chartHost()).getPropertyValue('--service-color-text').trim();
    expect(text).toBe('#eceef2');
    expect(labelFill(dark.chart)).toBe(text);
    expect(dark.chart.querySelector('g.role-title text')!.getAttribute('fill')).toBe(text);
  });

  it('follows a theme switch after it is drawn', async () => {
    const { chart } = chartOf('ordersByStatus', 'light');
    await settled(chart);
    chartHost().dataset.serviceTheme = 'dark';
    await vi.waitFor(
      () => expect(chart.querySelector('g.role-axis-label text')?.getAttribute('fill')).toBe('#eceef2'),
      { timeout: 20_000 },
    );
  });

  it('empties its container on unmount', async () => {
    const { chart } = chartOf('ordersByStatus');
    await settled(chart);
    const canvas = chart.querySelector('.service-result-chart__canvas')!;
    unmountChart();
    expect(canvas.childElementCount).toBe(0);
  });

  it('shows an error card for a spec Vega-Lite cannot compile, in place of the chart only', async () => {
    const { table } = fixture('ordersByStatus');
    const chart = mountChart(
      <ResultChart
        spec={{ mark: 'no-such-mark', encoding: { x: { field: 'status' } } }}
        columns={table.columns}
        rows={table.rows}
      />,
    );
    await settled(chart, 'error');
    expect(chart.querySelector('[role="alert"]')!.textContent).toMatch(/not a valid Vega-Lite chart/);
    expect(chart.querySelector('svg')).toBeNull();
  });

  it('shows an error card for a Vega spec and for rows that do not match the schema', async () => {
    const { table } = fixture('ordersByStatus');
    const vega = mountChart(
      <ResultChart
        spec={{ $schema: 'https://vega.github.io/schema/vega/v5.json', marks: [] }}
        columns={table.columns}
        rows={table.rows}
      />,
    );
    expect(vega.dataset.state).toBe('error');
    expect(vega.textContent).toMatch(/a Vega spec, not Vega-Lite/);
    const rows = table.rows.map((row) => [...row]);
    rows[0]!.pop();
    const mismatch = mountChart(<ResultChart spec={{ mark: 'bar' }} columns={table.columns} rows={rows} />);
    expect(mismatch.textContent).toMatch(/Row 1 has 2 cells but the schema has 3 columns/);
  });
});

describe('ResultChart reads like the product', () => {
  it.each([375, 640, 1400])(
    'labels each month once on a month axis, %i px wide, with compact numbers',
    async (width) => {
      const { result, table } = fixture('revenueByMonth');
      const chart = mountChart(
        <ResultChart spec={result.vegaSpec!} columns={table.columns} rows={table.rows} title={result.queryTitle} />,
        undefined,
        width,
      );
      await settled(chart);
      const xAxis = [...chart.querySelectorAll('g.role-axis')].find((axis) =>
        axis.getAttribute('aria-label')?.startsWith('X-axis'),
      )!;
      const months = [...xAxis.querySelectorAll('g.role-axis-label text')].map((text) => text.textContent);
      expect(months.length).toBeGreaterThan(1);
      expect(new Set(months).size).toBe(months.length);
      const labels = [...chart.querySelectorAll('g.role-axis-label text')].map((text) => text.textContent ?? '');
      expect(labels.some((label) => /^\$\d+(\.\d)?[KM]$/.test(label))).toBe(true);
      expect(labels.join(' ')).not.toMatch(/e[+-]\d/);
    },
  );
});
