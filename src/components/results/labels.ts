/**
 * Every UI string of the SQL result views, replaceable through a `labels` prop. Placeholders in
 * braces (`{shown}`) are filled in by the views; numbers arrive already formatted for the locale.
 * Labels that count take one form per plural category of the locale (`{ one, other }`, and `few`,
 * `many`... where the language has them), or one string for every count.
 *
 * @module
 */
import type { PluralForms } from '../../core/format-value';

/** UI strings of {@link SqlToolView}, `ResultTable` and `ResultChart`. Defaults in {@link DEFAULT_SQL_TOOL_LABELS}. */
export interface SqlToolLabels {
  /** Title when the tool call has none. */
  untitledQuery: string;
  /** Status while the query runs. */
  running: string;
  /** Summary of the collapsible SQL. */
  sql: string;
  /** Button copying the SQL. */
  copySql: string;
  /** Replaces {@link copySql} for a moment after copying. */
  copied: string;
  /** Accessible name of the chart/table switch. */
  viewSwitch: string;
  /** The table choice of the switch. */
  table: string;
  /** The chart choice of the switch. */
  chart: string;
  /** Button downloading the rows as CSV. */
  downloadCsv: string;
  /** Accessible name of the result table; `{title}` is the query title. */
  tableLabel: string;
  /** Under a capped table: `{shown}` and `{total}`, by the plural form of `{total}`. */
  showingRows: string | PluralForms;
  /** Under a whole table: `{total}`, by its plural form ("1 row", "2 rows"). */
  allRows: string | PluralForms;
  /** Table without rows. */
  noRows: string;
  /** Button fetching every row from the data API: `{total}`, by its plural form. */
  loadAll: string | PluralForms;
  /** While loading every row: `{count}` rows received so far. */
  loadingRows: string;
  /** Button stopping a "load all". */
  cancel: string;
  /** Loading every row failed: `{message}`. */
  loadAllFailed: string;
  /** Button trying again. */
  retry: string;
  /** Accessible name of the chart while it loads. */
  chartLoading: string;
  /** Accessible name of the rendered chart: `{title}`. */
  chartLabel: string;
  /** Heading of the error card of a chart that cannot be drawn. */
  chartError: string;
  /** The chart spec is not JSON: `{message}`. */
  chartInvalidJson: string;
  /** The chart spec is JSON but not a Vega-Lite spec Vega can draw: `{message}`. */
  chartInvalidSpec: string;
  /** The rows do not match their schema, so the chart would misread them: `{message}`. */
  chartDataMismatch: string;
  /** The chart passes one of its limits (`ChartLimits`): `{message}`. */
  chartTooLarge: string;
  /** The chart libraries could not be loaded (optional peers `vega-embed`, `vega-lite`, `vega-interpreter`): `{message}`. */
  chartUnavailable: string;
  /** Heading of the error card of a result the view cannot read. */
  resultError: string;
  /** The result is not a table: neither the `serviceSqlApi` shape nor the older row objects. */
  resultUnreadable: string;
}

/** The English defaults of {@link SqlToolLabels}. */
export const DEFAULT_SQL_TOOL_LABELS: Readonly<SqlToolLabels> = /*#__PURE__*/ Object.freeze({
  untitledQuery: 'Query',
  running: 'Running query…',
  sql: 'SQL',
  copySql: 'Copy SQL',
  copied: 'Copied',
  viewSwitch: 'Show the result as',
  table: 'Table',
  chart: 'Chart',
  downloadCsv: 'Download CSV',
  tableLabel: 'Result of {title}',
  showingRows: { one: 'Showing {shown} of {total} row', other: 'Showing {shown} of {total} rows' },
  allRows: { one: '{total} row', other: '{total} rows' },
  noRows: 'The query returned no rows.',
  loadAll: { one: 'Load all {total} row', other: 'Load all {total} rows' },
  loadingRows: 'Loading rows… {count} received',
  cancel: 'Cancel',
  loadAllFailed: 'Could not load all rows: {message}',
  retry: 'Retry',
  chartLoading: 'Loading chart…',
  chartLabel: 'Chart: {title}',
  chartError: 'The chart cannot be shown',
  chartInvalidJson: 'Its spec is not valid JSON ({message}).',
  chartInvalidSpec: 'Its spec is not a valid Vega-Lite chart ({message}).',
  chartDataMismatch: 'The rows do not match their schema ({message}).',
  chartTooLarge: 'It asks for more than a chart here may draw ({message}); the table has every row.',
  chartUnavailable: 'The chart libraries could not be loaded ({message}).',
  resultError: 'The result cannot be shown',
  resultUnreadable: 'The tool returned a result that is not a table.',
});

/** The defaults with the caller's labels over them. */
export function resolveLabels(labels: Partial<SqlToolLabels> | undefined): SqlToolLabels {
  return labels ? { ...DEFAULT_SQL_TOOL_LABELS, ...labels } : DEFAULT_SQL_TOOL_LABELS;
}

/** Fills `{name}` placeholders; an unknown placeholder stays as it is. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}
