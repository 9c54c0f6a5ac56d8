/**
 * The view of a `serviceSqlApi` tool call and its parts: the result table, the Vega-Lite chart,
 * and their labels.
 *
 * @module
 */
export { SqlToolView } from './SqlToolView';
export type { SqlToolViewProps } from './SqlToolView';
export type { ColumnFormats } from './column-hints';
export { ResultTable, DEFAULT_MAX_TABLE_ROWS } from './ResultTable';
export type { ResultTableProps, ResultTableSort } from './ResultTable';
export { ResultChart } from './ResultChart';
export type { ResultChartProps } from './ResultChart';
export { DEFAULT_CHART_LIMITS } from './chart-limits';
export type { ChartLimits } from './chart-limits';
export { DEFAULT_SQL_TOOL_LABELS } from './labels';
export type { SqlToolLabels, FormatNumber } from './labels';
