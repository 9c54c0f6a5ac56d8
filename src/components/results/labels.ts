/**
 * Every UI string of the SQL result views, replaceable through a `labels` prop or the labels of an
 * enclosing `AgentChat`: plain strings, or functions of what the text is about. A function that
 * counts gets the count as a number (choose the plural form: `pluralForm` of `@service/react`
 * does it by the locale's rules) and `format`, which writes a number in the view's locale.
 *
 * @module
 */

/** Formats a number in the view's locale (grouping, decimals), for labels that count. */
export type FormatNumber = (value: number) => string;

/**
 * UI strings of {@link SqlToolView}, `ResultTable` and `ResultChart`: plain strings, or functions of
 * what the text is about (counts as numbers, with `format` for the view's locale, so a translation
 * can choose its plural). Defaults in {@link DEFAULT_SQL_TOOL_LABELS}.
 */
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
  /** Accessible name of the result table, from the query's title. */
  tableLabel: (title: string) => string;
  /** Under a capped table: how many rows are shown of how many. */
  showingRows: (shown: number, total: number, format: FormatNumber) => string;
  /** Under a whole table: how many rows. */
  allRows: (total: number, format: FormatNumber) => string;
  /** Table without rows. */
  noRows: string;
  /** Button fetching every row from the data API. */
  loadAll: (total: number, format: FormatNumber) => string;
  /** While loading every row: how many have arrived. */
  loadingRows: (received: number, format: FormatNumber) => string;
  /** Button stopping a "load all". */
  cancel: string;
  /** Loading every row failed, and why. */
  loadAllFailed: (message: string) => string;
  /** Button trying again. */
  retry: string;
  /** Accessible name of the chart while it loads. */
  chartLoading: string;
  /** Accessible name of the rendered chart, from its title. */
  chartLabel: (title: string) => string;
  /** Heading of the error card of a chart that cannot be drawn. */
  chartError: string;
  /** The chart spec is not JSON, and the parser's message. */
  chartInvalidJson: (message: string) => string;
  /** The chart spec is JSON but not a Vega-Lite spec Vega can draw, and why. */
  chartInvalidSpec: (message: string) => string;
  /** The rows do not match their schema, so the chart would misread them, and why. */
  chartDataMismatch: (message: string) => string;
  /** The chart passes one of its limits (`ChartLimits`), and which. */
  chartTooLarge: (message: string) => string;
  /** The chart libraries could not be loaded (optional peers `vega-embed`, `vega-lite`, `vega-interpreter`), and why. */
  chartUnavailable: (message: string) => string;
  /** Heading of the error card of a result the view cannot read. */
  resultError: string;
  /** The result is not a table: neither the `serviceSqlApi` shape nor the older row objects. */
  resultUnreadable: string;
  /** A SQL `NULL` in a table cell. */
  nullValue: string;
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
  tableLabel: (title: string) => `Result of ${title}`,
  showingRows: (shown: number, total: number, format: FormatNumber) =>
    `Showing ${format(shown)} of ${format(total)} ${total === 1 ? 'row' : 'rows'}`,
  allRows: (total: number, format: FormatNumber) => `${format(total)} ${total === 1 ? 'row' : 'rows'}`,
  noRows: 'The query returned no rows.',
  loadAll: (total: number, format: FormatNumber) => `Load all ${format(total)} ${total === 1 ? 'row' : 'rows'}`,
  loadingRows: (received: number, format: FormatNumber) => `Loading rows… ${format(received)} received`,
  cancel: 'Cancel',
  loadAllFailed: (message: string) => `Could not load all rows: ${message}`,
  retry: 'Retry',
  chartLoading: 'Loading chart…',
  chartLabel: (title: string) => `Chart: ${title}`,
  chartError: 'The chart cannot be shown',
  chartInvalidJson: (message: string) => `Its spec is not valid JSON (${message}).`,
  chartInvalidSpec: (message: string) => `Its spec is not a valid Vega-Lite chart (${message}).`,
  chartDataMismatch: (message: string) => `The rows do not match their schema (${message}).`,
  chartTooLarge: (message: string) =>
    `It asks for more than a chart here may draw (${message}); the table has every row.`,
  chartUnavailable: (message: string) => `The chart libraries could not be loaded (${message}).`,
  resultError: 'The result cannot be shown',
  resultUnreadable: 'The tool returned a result that is not a table.',
  nullValue: 'null',
});
