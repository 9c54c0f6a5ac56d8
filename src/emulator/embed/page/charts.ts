/**
 * Charts drawn by hand as SVG (no chart library): bars, lines, a pie, a KPI and tables, from a
 * `/v1/load` result. Accessible: every chart is a labelled group, every mark a focusable button
 * with its value in words (one tab stop per chart, arrow keys move between marks), tables are
 * real tables with header cells.
 *
 * @module
 */
import type { LoadQuery, LoadResponse } from '../../../core/protocol/data';
import { h, s } from './dom';
import type { Formatter } from './format';

/** Kinds of chart a `CHART` widget's `config.chartType` names. */
export type ChartType = 'bar' | 'line' | 'pie' | 'kpi' | 'table';

/** What a chart needs. */
export interface ChartInput {
  chartType: ChartType;
  title: string;
  query: LoadQuery;
  result: LoadResponse;
  format: Formatter;
  /** Called when the viewer activates a mark: the measure and the value of the mark's category. */
  onDrill(member: string, value: unknown): void;
}

const WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 12, bottom: 30, left: 72 };

/** The key of the category column: the first time dimension with a granularity, else the first dimension. */
function categoryKey(query: LoadQuery): { key: string; granularity?: string } | undefined {
  const time = query.timeDimensions?.find((dimension) => dimension.granularity);
  if (time?.granularity) return { key: `${time.dimension}.${time.granularity}`, granularity: time.granularity };
  const dimension = query.dimensions?.[0];
  return dimension ? { key: dimension } : undefined;
}

interface Point {
  category: unknown;
  label: string;
  value: number;
  valueText: string;
}

function points(input: ChartInput, measure: string): Point[] {
  const category = categoryKey(input.query);
  const annotation = input.result.annotation;
  const categoryAnnotation = category
    ? (annotation.timeDimensions[category.key] ?? annotation.dimensions[category.key])
    : undefined;
  const measureAnnotation = annotation.measures[measure];
  return input.result.data.map((row) => {
    const raw = category ? row[category.key] : null;
    const value = Number(row[measure] ?? 0);
    return {
      category: raw,
      label: category ? input.format.cell(raw, categoryAnnotation, category.granularity) : input.title,
      value: Number.isFinite(value) ? value : 0,
      valueText: input.format.cell(row[measure] ?? null, measureAnnotation),
    };
  });
}

function measureTitle(input: ChartInput, measure: string): string {
  const annotation = input.result.annotation.measures[measure];
  return String(annotation?.shortTitle ?? annotation?.title ?? measure);
}

/** Roving focus over `marks`: one tab stop, arrows, Home and End move; Enter and Space activate. */
function rove(marks: SVGElement[], activate: (index: number) => void): void {
  marks.forEach((mark, index) => {
    mark.setAttribute('tabindex', index === 0 ? '0' : '-1');
    mark.addEventListener('click', () => activate(index));
    mark.addEventListener('keydown', (event) => {
      const key = (event as KeyboardEvent).key;
      if (key === 'Enter' || key === ' ') {
        event.preventDefault();
        activate(index);
        return;
      }
      const targets: Record<string, number> = {
        ArrowRight: Math.min(marks.length - 1, index + 1),
        ArrowDown: Math.min(marks.length - 1, index + 1),
        ArrowLeft: Math.max(0, index - 1),
        ArrowUp: Math.max(0, index - 1),
        Home: 0,
        End: marks.length - 1,
      };
      const next = targets[key];
      if (next === undefined) return;
      event.preventDefault();
      marks[index]!.setAttribute('tabindex', '-1');
      marks[next]!.setAttribute('tabindex', '0');
      (marks[next] as unknown as HTMLElement).focus();
    });
  });
}

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((candidate) => candidate * power >= value) ?? 10;
  return step * power;
}

function axes(maxValue: number, format: (value: number) => string, labels: string[]): SVGGElement {
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const group = s('g', { attrs: { class: 'svc-axes', 'aria-hidden': 'true' } });
  for (let tick = 0; tick <= 4; tick++) {
    const y = MARGIN.top + plotHeight - (plotHeight * tick) / 4;
    group.append(
      s('line', { attrs: { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y, y2: y, class: 'svc-grid-line' } }),
      s(
        'text',
        { attrs: { x: MARGIN.left - 6, y: y + 4, 'text-anchor': 'end', class: 'svc-tick' } },
        format((maxValue * tick) / 4),
      ),
    );
  }
  // A label under every bar when they fit, else the first, the middle and the last.
  const every = labels.length <= 12 ? 1 : Math.ceil(labels.length / 3);
  labels.forEach((label, index) => {
    if (index % every !== 0 && index !== labels.length - 1) return;
    const x = MARGIN.left + (plotWidth * (index + 0.5)) / labels.length;
    // The outermost labels of a dense axis align to their edge so they are not cut off.
    const anchor =
      labels.length <= 12 ? 'middle' : index === 0 ? 'start' : index === labels.length - 1 ? 'end' : 'middle';
    group.append(s('text', { attrs: { x, y: HEIGHT - 8, 'text-anchor': anchor, class: 'svc-tick' } }, label));
  });
  return group;
}

function chartFrame(input: ChartInput, kind: string, ...children: SVGElement[]): SVGSVGElement {
  return s(
    'svg',
    {
      attrs: {
        viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
        role: 'group',
        'aria-label': `${input.title} (${kind})`,
        class: 'svc-chart',
        'data-chart': kind,
      },
    },
    ...children,
  );
}

function barChart(input: ChartInput, measure: string): SVGSVGElement {
  const data = points(input, measure);
  const max = niceMax(Math.max(0, ...data.map((point) => point.value)));
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, data.length);
  const name = measureTitle(input, measure);
  const bars = data.map((point, index) => {
    const height = (plotHeight * Math.max(0, point.value)) / max;
    return s(
      'rect',
      {
        attrs: {
          x: MARGIN.left + slot * index + slot * 0.1,
          y: MARGIN.top + plotHeight - height,
          width: Math.max(1, slot * 0.8),
          height: Math.max(0, height),
          class: 'svc-mark svc-bar',
          role: 'button',
          'aria-label': `${point.label}: ${point.valueText} ${name}`,
          'data-value': String(point.category ?? ''),
        },
      },
      s('title', {}, `${point.label}: ${point.valueText}`),
    );
  });
  rove(bars, (index) => input.onDrill(measure, data[index]!.category));
  return chartFrame(
    input,
    'bar',
    axes(
      max,
      (value) => input.format.number(value),
      data.map((point) => point.label),
    ),
    s('g', {}, ...bars),
  );
}

function lineChart(input: ChartInput, measure: string): SVGSVGElement {
  const data = points(input, measure);
  const max = niceMax(Math.max(0, ...data.map((point) => point.value)));
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, data.length);
  const xy = data.map(
    (point, index) =>
      [
        MARGIN.left + slot * (index + 0.5),
        MARGIN.top + plotHeight - (plotHeight * Math.max(0, point.value)) / max,
      ] as const,
  );
  const name = measureTitle(input, measure);
  const line = s('polyline', {
    attrs: {
      points: xy.map(([x, y]) => `${x},${y}`).join(' '),
      class: 'svc-line',
      fill: 'none',
      'aria-hidden': 'true',
    },
  });
  const dots = data.map((point, index) =>
    s(
      'circle',
      {
        attrs: {
          cx: xy[index]![0],
          cy: xy[index]![1],
          r: 5,
          class: 'svc-mark svc-dot',
          role: 'button',
          'aria-label': `${point.label}: ${point.valueText} ${name}`,
          'data-value': String(point.category ?? ''),
        },
      },
      s('title', {}, `${point.label}: ${point.valueText}`),
    ),
  );
  rove(dots, (index) => input.onDrill(measure, data[index]!.category));
  return chartFrame(
    input,
    'line',
    axes(
      max,
      (value) => input.format.number(value),
      data.map((point) => point.label),
    ),
    line,
    s('g', {}, ...dots),
  );
}

function pieChart(input: ChartInput, measure: string): HTMLElement {
  const data = points(input, measure).filter((point) => point.value > 0);
  const total = data.reduce((sum, point) => sum + point.value, 0) || 1;
  const radius = 100;
  const center = { x: 120, y: 120 };
  let angle = -Math.PI / 2;
  const name = measureTitle(input, measure);
  const slices = data.map((point, index) => {
    const sweep = (2 * Math.PI * point.value) / total;
    const end = angle + Math.min(sweep, 2 * Math.PI - 0.0001);
    const [x1, y1] = [center.x + radius * Math.cos(angle), center.y + radius * Math.sin(angle)];
    const [x2, y2] = [center.x + radius * Math.cos(end), center.y + radius * Math.sin(end)];
    const path = `M ${center.x} ${center.y} L ${x1} ${y1} A ${radius} ${radius} 0 ${sweep > Math.PI ? 1 : 0} 1 ${x2} ${y2} Z`;
    angle += sweep;
    const share = input.format.number(Math.round((1000 * point.value) / total) / 10);
    return s(
      'path',
      {
        attrs: {
          d: path,
          class: `svc-mark svc-slice svc-series-${index % 6}`,
          role: 'button',
          'aria-label': `${point.label}: ${point.valueText} ${name} (${share} %)`,
          'data-value': String(point.category ?? ''),
        },
      },
      s('title', {}, `${point.label}: ${point.valueText}`),
    );
  });
  rove(slices, (index) => input.onDrill(measure, data[index]!.category));
  const svg = s(
    'svg',
    {
      attrs: {
        viewBox: '0 0 240 240',
        role: 'group',
        'aria-label': `${input.title} (pie)`,
        class: 'svc-chart svc-pie',
        'data-chart': 'pie',
      },
    },
    ...slices,
  );
  const legend = h(
    'ul',
    { attrs: { class: 'svc-legend' } },
    ...data.map((point, index) =>
      h(
        'li',
        {},
        h('span', { attrs: { class: `svc-swatch svc-series-${index % 6}`, 'aria-hidden': 'true' } }),
        `${point.label}: ${point.valueText}`,
      ),
    ),
  );
  return h('div', { attrs: { class: 'svc-pie-wrap' } }, svg, legend);
}

function kpi(input: ChartInput, measure: string): HTMLElement {
  const row = input.result.data[0];
  const annotation = input.result.annotation.measures[measure];
  const raw = row?.[measure] ?? null;
  const full = input.format.cell(raw, annotation);
  const value = Number(raw);
  // Large numbers in their compact form (37.2M) so they fit a small tile; the full value stays
  // in the accessible name and the tooltip.
  const text = raw !== null && Number.isFinite(value) ? input.format.compact(value, annotation?.['format']) : full;
  return h(
    'p',
    { attrs: { class: 'svc-kpi', 'data-chart': 'kpi' } },
    h(
      'span',
      { attrs: { class: 'svc-kpi-value', title: full, 'aria-label': full, 'data-value': String(raw ?? '') } },
      text,
    ),
    h('span', { attrs: { class: 'svc-kpi-label' } }, measureTitle(input, measure)),
  );
}

/** A table of the result: one column per member of the query, measure cells drill. */
export function resultTable(input: Omit<ChartInput, 'chartType'>): HTMLTableElement {
  const { query, result } = input;
  const time = (query.timeDimensions ?? [])
    .filter((dimension) => dimension.granularity)
    .map((dimension) => ({
      key: `${dimension.dimension}.${dimension.granularity}`,
      granularity: dimension.granularity,
    }));
  const columns: { key: string; measure: boolean; granularity?: string }[] = [
    ...time.map((column) => ({ key: column.key, measure: false, granularity: column.granularity })),
    ...(query.dimensions ?? []).map((key) => ({ key, measure: false })),
    ...(query.measures ?? []).map((key) => ({ key, measure: true })),
  ];
  const annotationOf = (key: string) =>
    result.annotation.measures[key] ?? result.annotation.timeDimensions[key] ?? result.annotation.dimensions[key];
  const titleOf = (key: string) => String(annotationOf(key)?.shortTitle ?? annotationOf(key)?.title ?? key);
  const category = categoryKey(query);
  return h(
    'table',
    { attrs: { class: 'svc-table', 'data-chart': 'table' } },
    h('caption', { attrs: { class: 'svc-visually-hidden' } }, input.title),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...columns.map((column) =>
          h('th', { attrs: { scope: 'col', class: column.measure ? 'svc-num' : undefined } }, titleOf(column.key)),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...result.data.map((row) =>
        h(
          'tr',
          {},
          ...columns.map((column) => {
            const text = input.format.cell(row[column.key] ?? null, annotationOf(column.key), column.granularity);
            if (!column.measure) return h('td', {}, text);
            const value = category ? row[category.key] : row[column.key];
            return h(
              'td',
              { attrs: { class: 'svc-num' } },
              h(
                'button',
                {
                  attrs: { type: 'button', class: 'svc-cell-drill' },
                  on: { click: () => input.onDrill(column.key, value) },
                },
                text,
              ),
            );
          }),
        ),
      ),
    ),
  );
}

/** Draws one chart. A chart without a measure (or a `table`) becomes a table. */
export function renderChart(input: ChartInput): Element {
  const measure = input.query.measures?.[0];
  if (!measure || input.chartType === 'table') return resultTable(input);
  switch (input.chartType) {
    case 'kpi':
      return kpi(input, measure);
    case 'line':
      return lineChart(input, measure);
    case 'pie':
      return pieChart(input, measure);
    case 'bar':
    default:
      return barChart(input, measure);
  }
}
