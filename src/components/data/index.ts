/**
 * Native views of the partner's own queries: a KPI tile, a chart and a table, over the data
 * hooks and the result views the chat uses.
 *
 * @module
 */
export { MetricCard } from './MetricCard';
export type { MetricCardProps } from './MetricCard';
export { QueryChart } from './QueryChart';
export type { QueryChartProps } from './QueryChart';
export { QueryTable, DEFAULT_QUERY_TABLE_PAGE_SIZE } from './QueryTable';
export type { QueryTableProps } from './QueryTable';
export { defaultChartSpec, chartFieldNames } from './chart-spec';
export type { ChartSpec } from './chart-spec';
export { DEFAULT_DATA_VIEW_LABELS } from './labels';
export type { DataViewLabels, MetricChange, MetricDirection, FormatCount } from './labels';
export type { DataViewSource, ViewQuery } from './use-result-query';
