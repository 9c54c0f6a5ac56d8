/**
 * The one chart theme: a Vega-Lite `config` built from the `--service-*` tokens where the chart
 * is drawn (font, text, grid and axis colours, the series palette, label and title sizes), light
 * and dark, plus the spec adjustments that make an agent's chart read like the product's own:
 * compact numbers on axes and legends ("1.2M", never "1e+6"), horizontal axis labels where they
 * fit, one colour for a single series, a month axis with each month labelled once.
 *
 * In light mode the spec's own `config` (the service's official chart style, which the agent puts
 * in every spec and which the token defaults reproduce) wins over the theme; in dark mode the
 * theme's text, grid and axis colours win, so labels stay readable.
 *
 * @module
 */
import { DEFAULT_CHART_STYLE } from '../../core/protocol/tools';
import type { ChartValue } from '../../core/result-data';
import type { ChartTheme } from './use-chart-theme';

export type { ChartTheme } from './use-chart-theme';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The expression function the theme registers for axis labels: compact numbers (`compactNumber`). */
export const COMPACT_FORMAT = 'serviceCompact';

/** The theme as a Vega-Lite `config`: what every chart starts from (a spec's own `config` goes over it). */
export function themeConfig(
  theme: ChartTheme = { dark: false, text: DEFAULT_CHART_STYLE.labelColor, muted: '#5b6270', border: '#d5d9e0' },
): JsonObject {
  const font = theme.font ?? DEFAULT_CHART_STYLE.font;
  const size = theme.fontSize ?? 11;
  const palette = [...(theme.palette ?? DEFAULT_CHART_STYLE.palette)];
  const grid = theme.grid ?? (theme.dark ? '#2b2f38' : '#e6e8ec');
  const axis = theme.axis ?? (theme.dark ? '#4a505c' : '#c5cad3');
  const text = theme.text || DEFAULT_CHART_STYLE.labelColor;
  return {
    background: 'transparent',
    font,
    padding: 4,
    title: {
      font,
      color: text,
      subtitleColor: theme.muted,
      fontSize: theme.titleFontSize ?? 13,
      fontWeight: 600,
      anchor: 'start',
      offset: 12,
      // A title longer than the chart wraps nowhere: it is never cut.
      limit: 0,
    },
    axis: {
      labelFont: font,
      titleFont: font,
      labelColor: text,
      titleColor: text,
      labelFontSize: size,
      titleFontSize: size,
      titleFontWeight: 600,
      titlePadding: 8,
      labelPadding: 6,
      gridColor: grid,
      domainColor: axis,
      tickColor: axis,
      tickSize: 4,
      labelLimit: 160,
    },
    axisY: { domain: false, ticks: false, labelPadding: 8 },
    axisQuantitative: { tickCount: 5 },
    axisX: { grid: false },
    axisBand: { grid: false },
    legend: {
      labelFont: font,
      titleFont: font,
      labelColor: text,
      titleColor: text,
      labelFontSize: size,
      titleFontSize: size,
      titleFontWeight: 600,
      symbolType: 'circle',
      symbolSize: 70,
      labelLimit: 160,
    },
    header: { labelFont: font, titleFont: font, labelColor: text, titleColor: text, labelFontSize: size },
    view: { stroke: null },
    range: { category: palette },
    mark: { color: palette[0]! },
    bar: { cornerRadiusEnd: 2 },
    line: { strokeWidth: 2 },
    point: { filled: true, size: 48 },
  };
}

/** `config` with the theme's text and rule colours over the spec's own (dark mode). */
export function darkConfig(config: JsonObject, theme: ChartTheme): JsonObject {
  const merge = (key: string, values: JsonObject): JsonObject => ({
    ...(isObject(config[key]) ? (config[key] as JsonObject) : {}),
    ...values,
  });
  const grid = theme.grid ?? '#2b2f38';
  const axis = theme.axis ?? theme.muted;
  return {
    ...config,
    background: 'transparent',
    axis: merge('axis', {
      labelColor: theme.text,
      titleColor: theme.text,
      gridColor: grid,
      domainColor: axis,
      tickColor: axis,
    }),
    legend: merge('legend', { labelColor: theme.text, titleColor: theme.text }),
    header: merge('header', { labelColor: theme.text, titleColor: theme.text }),
    title: merge('title', { color: theme.text, subtitleColor: theme.muted }),
  };
}

/**
 * `config` with a brand's font on every text and its colour as the single series' colour and the
 * first of the category palette, over the spec's own (the agent writes the service's default style
 * into every spec): one theme brands the charts too.
 */
export function brandConfig(config: JsonObject, theme: ChartTheme): JsonObject {
  const next: JsonObject = { ...config };
  const merge = (key: string, values: JsonObject) => {
    next[key] = { ...(isObject(config[key]) ? (config[key] as JsonObject) : {}), ...values };
  };
  const font = theme.brandFont;
  if (font) {
    next['font'] = font;
    for (const key of ['axis', 'legend', 'header']) merge(key, { labelFont: font, titleFont: font });
    merge('title', { font, subtitleFont: font });
  }
  if (theme.accent) {
    merge('mark', { color: theme.accent });
    const range = isObject(config['range']) ? (config['range'] as JsonObject) : {};
    const category = Array.isArray(range['category']) ? range['category'].slice(1) : [];
    merge('range', { category: [theme.accent, ...category] });
  }
  return next;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Spec adjustments

/** Rough width of a label in pixels: the theme's font averages about 0.6 em per character. */
const labelWidth = (text: string, fontSize: number) => text.length * fontSize * 0.6;

const MONTH_FORMAT = /%[bBm]/;
const FINER_THAN_MONTH = /%[dejaAHIMLSpQsUWVuwxXcf]/;
const MONTH_UNIT = /^(?:utc)?(?:year)?month$/;

/** What {@link adjustSpec} needs to know. */
export interface AdjustOptions {
  /** The rows, for label widths and date extents. */
  records: readonly Record<string, ChartValue>[];
  /** The width the chart has, in pixels. */
  width: number;
  theme: ChartTheme;
}

/**
 * Adjusts the encodings of a unit spec (and of every unit inside layers and concats), in place:
 * - a colour channel on the same field as `x` or `y` (every bar its own colour, and a legend that
 *   repeats the axis) is removed: a single series has one colour;
 * - a discrete `x` axis keeps its labels horizontal when the longest label fits its band, else
 *   angles them at -45 degrees (never the stock -90);
 * - a temporal axis formatted to the month (`%b %Y`) or with a month `timeUnit` gets one tick per
 *   month (or per few months when they do not fit), so each month is labelled once.
 * A spec's own explicit choices (`labelAngle`, `tickCount`, `values`) are kept.
 */
export function adjustSpec(node: Json, options: AdjustOptions): void {
  if (Array.isArray(node)) {
    for (const child of node) adjustSpec(child, options);
    return;
  }
  if (!isObject(node)) return;
  for (const key of ['layer', 'concat', 'hconcat', 'vconcat', 'spec'] as const)
    if (node[key] !== undefined) adjustSpec(node[key]!, options);
  const encoding = node['encoding'];
  if (!isObject(encoding)) return;
  const fieldOf = (channel: string) => {
    const definition = encoding[channel];
    return isObject(definition) && typeof definition['field'] === 'string' ? definition['field'] : undefined;
  };
  const color = fieldOf('color');
  if (color !== undefined && (color === fieldOf('x') || color === fieldOf('y'))) {
    const definition = encoding['color'] as JsonObject;
    // Only a colour that adds nothing: a legend the spec asked for, or a scale of its own, stays.
    if (!isObject(definition['legend']) && definition['scale'] === undefined) delete encoding['color'];
  }
  const x = encoding['x'];
  if (isObject(x)) adjustXLabels(x, options);
  for (const channel of ['x', 'y'] as const) {
    const definition = encoding[channel];
    if (!isObject(definition)) continue;
    monthTicks(definition, channel, options);
    compactLabels(definition);
  }
}

/**
 * Axis labels of a quantitative channel in compact form ("$2.4M" for `$,.0f`): the labels only,
 * through `labelExpr`; tooltips and the marks' descriptions keep the spec's full format.
 */
function compactLabels(definition: JsonObject): void {
  if (definition['type'] !== 'quantitative' || definition['bin'] !== undefined) return;
  const axis = axisOf(definition);
  if (!axis || axis['labelExpr'] !== undefined) return;
  const format = typeof axis['format'] === 'string' ? axis['format'] : '';
  // Only grouping and currency formats: a percent or a precision the spec chose keeps its own.
  if (!/^\$?,?(?:\.\d+f)?$/.test(format.replace(/~/g, ''))) return;
  axis['labelExpr'] = `${COMPACT_FORMAT}(datum.value, ${JSON.stringify(format)})`;
}

function axisOf(definition: JsonObject): JsonObject | undefined {
  const axis = definition['axis'];
  if (axis === null) return undefined;
  if (!isObject(axis)) definition['axis'] = {};
  return definition['axis'] as JsonObject;
}

function adjustXLabels(x: JsonObject, options: AdjustOptions): void {
  const type = x['type'];
  const field = x['field'];
  if ((type !== 'nominal' && type !== 'ordinal') || typeof field !== 'string' || x['timeUnit'] !== undefined) return;
  const axis = axisOf(x);
  if (!axis || axis['labelAngle'] !== undefined) return;
  const labels = new Set<string>();
  for (const record of options.records) {
    labels.add(String(record[field] ?? ''));
    if (labels.size > 500) break;
  }
  const fontSize = options.theme.fontSize ?? 11;
  let longest = 0;
  for (const label of labels) longest = Math.max(longest, labelWidth(label, fontSize));
  const band = options.width / Math.max(labels.size, 1);
  axis['labelAngle'] = longest + 6 <= band ? 0 : -45;
  if (axis['labelAngle'] !== 0) axis['labelAlign'] = 'right';
}

function monthTicks(definition: JsonObject, channel: 'x' | 'y', options: AdjustOptions): void {
  if (definition['type'] !== 'temporal') return;
  const axis = axisOf(definition);
  if (!axis || axis['tickCount'] !== undefined || axis['values'] !== undefined) return;
  const format = typeof axis['format'] === 'string' ? axis['format'] : undefined;
  const unit = definition['timeUnit'];
  const monthly =
    (format !== undefined && MONTH_FORMAT.test(format) && !FINER_THAN_MONTH.test(format)) ||
    (typeof unit === 'string' && MONTH_UNIT.test(unit));
  if (!monthly) return;
  const field = definition['field'];
  let first = Infinity;
  let last = -Infinity;
  for (const record of options.records) {
    const value = typeof field === 'string' ? record[field] : undefined;
    if (value instanceof Date) {
      first = Math.min(first, value.getTime());
      last = Math.max(last, value.getTime());
    }
  }
  if (!(first <= last)) return;
  const months = Math.round((last - first) / 2_629_800_000) + 1;
  const fontSize = options.theme.fontSize ?? 11;
  // "Sep 2025" and some air; on a vertical axis a label is one line high.
  const room = channel === 'x' ? labelWidth('Sep 2025', fontSize) + 12 : fontSize * 2.5;
  // The plot is narrower than the chart by the y axis and its title on the left.
  const plot = channel === 'x' ? options.width - 80 : options.width * 0.6;
  const fits = Math.max(1, Math.floor(plot / room));
  const step = [1, 2, 3, 6, 12, 24, 60, 120].find((candidate) => months / candidate <= fits) ?? 120;
  axis['tickCount'] = { interval: 'month', step };
  axis['labelOverlap'] = true;
  if (axis['format'] === undefined) axis['format'] = step >= 12 ? '%Y' : '%b %Y';
  if (channel === 'x' && axis['labelAngle'] === undefined) axis['labelAngle'] = 0;
}

// ---------------------------------------------------------------------------------------------
// Compact numbers

const compactFormats = /*#__PURE__*/ new Map<string, Intl.NumberFormat>();

/**
 * A number as the theme's compact format shows it: `1.2M`, `45K`, `950`, in `locale` (never
 * `1e+6`); a d3 specifier given with it (`$` for currency, `%` for percent) keeps its meaning.
 */
export function compactNumber(value: unknown, specifier?: unknown, locale?: string): string {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return String(value ?? '');
  const text = typeof specifier === 'string' ? specifier : '';
  const key = `${locale ?? ''}|${text.includes('$') ? '$' : text.endsWith('%') ? '%' : ''}`;
  let format = compactFormats.get(key);
  if (!format) {
    const options: Intl.NumberFormatOptions = { notation: 'compact', maximumFractionDigits: 1 };
    if (text.includes('$')) Object.assign(options, { style: 'currency', currency: 'USD' });
    if (text.endsWith('%')) options.style = 'percent';
    format = new Intl.NumberFormat(locale, options);
    compactFormats.set(key, format);
  }
  return format.format(number);
}
