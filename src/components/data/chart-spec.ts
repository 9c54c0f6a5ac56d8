/**
 * The chart of a query's result: a Vega-Lite spec chosen from the result's shape when the caller
 * gives none, and field names a chart can use.
 *
 * Member names hold dots (`orders.total_revenue`), which Vega-Lite reads as a path into nested
 * objects. The chart's rows therefore carry each column under a name without them
 * (`orders_total_revenue`), and a caller's spec that names the member is rewritten to match, so
 * specs name members as the query does.
 *
 * @module
 */
import { columnTitle, type FormatColumn } from '../../core/format-value';
import { columnKind } from '../../core/result-data';

/** A Vega-Lite spec as plain JSON. */
export type ChartSpec = Record<string, unknown>;

/**
 * Names for the chart's fields, one per column, in order: the column's name with every character
 * other than a letter, digit or `_` made `_`, and a number added where two would be the same.
 */
export function chartFieldNames(columns: readonly Pick<FormatColumn, 'name'>[]): string[] {
  const taken = new Set<string>();
  return columns.map((column) => {
    const base = column.name.replace(/[^A-Za-z0-9_]/g, '_') || 'column';
    let name = base;
    for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}`;
    taken.add(name);
    return name;
  });
}

/** Keys of a spec whose values are field names (strings, or lists of them). */
const FIELD_LISTS = /*#__PURE__*/ new Set(['groupby', 'fold', 'fields']);

/**
 * A copy of `spec` with the fields it names by column name (`orders.total_revenue`) renamed to
 * their chart field names, and an encoding of a renamed field without a `title` titled like the
 * table's column ("Revenue"). Everything else is kept as it is.
 */
export function bindSpecFields(
  spec: ChartSpec,
  names: ReadonlyMap<string, string>,
  titles: ReadonlyMap<string, string>,
): ChartSpec {
  const rename = (value: unknown) => (typeof value === 'string' ? (names.get(value) ?? value) : value);
  // `encoding` holds channels (a channel may be a list: tooltips); only a channel gets a title.
  const visit = (node: unknown, role: 'none' | 'encoding' | 'channel', depth: number): unknown => {
    if (depth > 64 || node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((item) => visit(item, role === 'channel' ? 'channel' : 'none', depth + 1));
    // No prototype: a key `__proto__` of a parsed spec stays a key.
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'field') copy[key] = rename(value);
      else if (FIELD_LISTS.has(key) && Array.isArray(value)) copy[key] = value.map(rename);
      else
        copy[key] = visit(value, role === 'encoding' ? 'channel' : key === 'encoding' ? 'encoding' : 'none', depth + 1);
    }
    const field = (node as Record<string, unknown>)['field'];
    if (role === 'channel' && typeof field === 'string' && copy['title'] === undefined) {
      const title = titles.get(field);
      if (title !== undefined) copy['title'] = title;
    }
    return copy;
  };
  return visit(spec, 'none', 0) as ChartSpec;
}

/** A d3 number format for a column's tooltip (`precise`) or axis, by its format. */
function numberFormat(column: FormatColumn, precise = false): string | undefined {
  if (column.format === 'currency' && (column.currency ?? 'USD') === 'USD') return precise ? '$,.2f' : '$,.0f';
  if (column.format === 'percent') return '.1%';
  return precise ? ',' : undefined;
}

/** A d3 time format for a temporal column, by how much of a date its values carry. */
function timeFormat(column: FormatColumn): string | undefined {
  switch (column.granularity) {
    case 'year':
      return '%Y';
    case 'quarter':
    case 'month':
      return '%b %Y';
    case 'day':
      return '%b %-d, %Y';
    // Finer than a day (or unknown): Vega-Lite's own multi-format picks what the ticks need.
    case 'millisecond':
    case 'second':
    case 'minute':
    case undefined:
    default:
      return undefined;
  }
}

/** Categories past which bars lie down, so their labels stay readable. */
const HORIZONTAL_BARS_FROM = 8;

/**
 * A Vega-Lite spec for a result of this shape, its fields named `fields` (see
 * {@link chartFieldNames}), or `undefined` when there is no number to draw:
 * - a date or time column: a line of the first number over it, one line per value of the first
 *   text column when there is one;
 * - a text (or boolean) column: bars of the first number per value, largest first, lying down past
 *   eight categories, stacked by the second text column when there is one;
 * - two numbers: a scatter plot;
 * - one number: one bar.
 * Axes and tooltips are titled like the table's columns and formatted by the columns' formats.
 */
export function defaultChartSpec(
  columns: readonly FormatColumn[],
  fields: readonly string[],
  options: {
    /** The chart's title. */
    title?: string;
    /** Rows of the result: a line over many points draws no point marks. */
    rowCount?: number;
  } = {},
): ChartSpec | undefined {
  const indexed = columns.map((column, index) => ({ column, field: fields[index]!, kind: columnKind(column.type) }));
  const numbers = indexed.filter((entry) => entry.kind === 'number');
  const times = indexed.filter((entry) => entry.kind === 'temporal');
  const texts = indexed.filter((entry) => entry.kind === 'string' || entry.kind === 'boolean');
  const value = numbers[0];
  if (!value) return undefined;
  const channel = (entry: (typeof indexed)[number], type: string, extra: ChartSpec = {}): ChartSpec => {
    const format = entry.kind === 'number' ? numberFormat(entry.column) : timeFormat(entry.column);
    return {
      field: entry.field,
      type,
      title: columnTitle(entry.column),
      ...(format ? { axis: { format } } : {}),
      ...extra,
    };
  };
  const tooltip = (entries: (typeof indexed)[number][]) =>
    entries.map((entry) => {
      const format = entry.kind === 'number' ? numberFormat(entry.column, true) : timeFormat(entry.column);
      const type = entry.kind === 'number' ? 'quantitative' : entry.kind === 'temporal' ? 'temporal' : 'nominal';
      return { field: entry.field, type, title: columnTitle(entry.column), ...(format ? { format } : {}) };
    });
  const base: ChartSpec = { width: 'container', height: 300, ...(options.title ? { title: options.title } : {}) };
  const time = times[0];
  if (time) {
    const series = texts[0];
    return {
      ...base,
      mark: { type: 'line', point: (options.rowCount ?? 0) <= 60 },
      encoding: {
        x: channel(time, 'temporal'),
        y: channel(value, 'quantitative'),
        ...(series ? { color: channel(series, 'nominal') } : {}),
        tooltip: tooltip([time, ...(series ? [series] : []), ...numbers]),
      },
    };
  }
  const category = texts[0];
  if (category) {
    const stack = texts[1];
    const lying = (options.rowCount ?? 0) > HORIZONTAL_BARS_FROM;
    return {
      ...base,
      mark: { type: 'bar' },
      encoding: {
        [lying ? 'y' : 'x']: channel(category, 'nominal', { sort: lying ? '-x' : '-y' }),
        [lying ? 'x' : 'y']: channel(value, 'quantitative'),
        ...(stack ? { color: channel(stack, 'nominal') } : {}),
        tooltip: tooltip([category, ...(stack ? [stack] : []), ...numbers]),
      },
    };
  }
  const other = numbers[1];
  if (other) {
    return {
      ...base,
      mark: { type: 'point' },
      encoding: { x: channel(value, 'quantitative'), y: channel(other, 'quantitative'), tooltip: tooltip(numbers) },
    };
  }
  return { ...base, mark: { type: 'bar' }, encoding: { y: channel(value, 'quantitative'), tooltip: tooltip(numbers) } };
}
