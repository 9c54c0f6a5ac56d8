// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { adjustSpec, compactNumber, themeConfig, type ChartTheme } from '../../../src/components/results/chart-theme';
import { DEFAULT_CHART_STYLE } from '../../../src/core/protocol/tools';

const THEME: ChartTheme = { dark: false, text: '#43436b', muted: '#5b6270', border: '#d5d9e0', fontSize: 11 };
const months = Array.from({ length: 12 }, (_, month) => ({ month: new Date(2025, month, 1), revenue: month * 1e5 }));

describe('the chart theme', () => {
  it('is built from the tokens, with the official style as the light defaults', () => {
    const config = themeConfig({ ...THEME, grid: '#eee', palette: ['#111', '#222'], font: 'Acme' });
    expect(config).toMatchObject({
      font: 'Acme',
      axis: { gridColor: '#eee', labelColor: '#43436b', labelFontSize: 11 },
      range: { category: ['#111', '#222'] },
      mark: { color: '#111' },
      title: { limit: 0 },
    });
    expect(themeConfig()).toMatchObject({
      font: DEFAULT_CHART_STYLE.font,
      range: { category: [...DEFAULT_CHART_STYLE.palette] },
    });
  });

  it('compact numbers never use exponents', () => {
    expect([1e5, 1_250_000, 950, 2.5e9].map((value) => compactNumber(value, '', 'en-US'))).toEqual([
      '100K',
      '1.3M',
      '950',
      '2.5B',
    ]);
    expect(compactNumber(2_400_000, '$,.0f', 'en-US')).toBe('$2.4M');
    expect(compactNumber(1e21, '', 'en-US')).not.toMatch(/e\+/);
  });
});

describe('adjustSpec', () => {
  const adjust = (spec: Record<string, unknown>, width = 640, records: Record<string, unknown>[] = months) => {
    adjustSpec(spec as never, { records: records as never, width, theme: THEME });
    return spec;
  };

  it('gives a single series one colour: a colour on the x or y field goes', () => {
    const spec = adjust(
      {
        mark: 'bar',
        encoding: {
          x: { field: 'status', type: 'nominal' },
          y: { field: 'n', type: 'quantitative' },
          color: { field: 'status', legend: null },
        },
      },
      640,
      [{ status: 'a', n: 1 }],
    );
    expect(spec['encoding']).not.toHaveProperty('color');
    const grouped = adjust({ mark: 'bar', encoding: { x: { field: 'status' }, color: { field: 'region' } } }, 640, []);
    expect(grouped['encoding']).toHaveProperty('color');
  });

  it('keeps x labels horizontal where they fit, else angles them at -45 degrees', () => {
    const fits = adjust({ mark: 'bar', encoding: { x: { field: 's', type: 'nominal' } } }, 640, [
      { s: 'short' },
      { s: 'tiny' },
    ]);
    expect(fits).toMatchObject({ encoding: { x: { axis: { labelAngle: 0 } } } });
    const long = Array.from({ length: 20 }, (_, index) => ({ s: `a rather long customer name ${index}` }));
    expect(adjust({ mark: 'bar', encoding: { x: { field: 's', type: 'nominal' } } }, 640, long)).toMatchObject({
      encoding: { x: { axis: { labelAngle: -45 } } },
    });
  });

  it('labels each month once on a month axis, fewer months when they do not fit', () => {
    const wide = adjust(
      { mark: 'line', encoding: { x: { field: 'month', type: 'temporal', axis: { format: '%b %Y' } } } },
      1200,
    );
    expect(wide).toMatchObject({ encoding: { x: { axis: { tickCount: { interval: 'month', step: 1 } } } } });
    const narrow = adjust(
      { mark: 'line', encoding: { x: { field: 'month', type: 'temporal', axis: { format: '%b %Y' } } } },
      375,
    );
    expect(narrow).toMatchObject({ encoding: { x: { axis: { tickCount: { interval: 'month', step: 3 } } } } });
    // A day format or the spec's own tickCount is left alone.
    const days = adjust({
      mark: 'line',
      encoding: { x: { field: 'month', type: 'temporal', axis: { format: '%d %b' } } },
    });
    expect(days).toMatchObject({ encoding: { x: { axis: { format: '%d %b' } } } });
    expect((days as { encoding: { x: { axis: object } } }).encoding.x.axis).not.toHaveProperty('tickCount');
  });

  it('writes quantitative axis labels in compact form, keeping the spec format for tooltips', () => {
    const spec = adjust({
      mark: 'line',
      encoding: { y: { field: 'revenue', type: 'quantitative', axis: { format: '$,.0f' } } },
    });
    expect(spec).toMatchObject({
      encoding: { y: { axis: { format: '$,.0f', labelExpr: 'serviceCompact(datum.value, "$,.0f")' } } },
    });
    const percent = adjust({
      mark: 'line',
      encoding: { y: { field: 'share', type: 'quantitative', axis: { format: '.1%' } } },
    });
    expect(percent).toMatchObject({ encoding: { y: { axis: { format: '.1%' } } } });
    expect((percent as { encoding: { y: { axis: object } } }).encoding.y.axis).not.toHaveProperty('labelExpr');
  });
});
