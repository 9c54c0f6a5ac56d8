import { forwardRef, useMemo, type ComponentPropsWithoutRef } from 'react';
import { columnTitle } from '../../core/format-value';
import { ErrorCard } from '../results/ErrorCard';
import { ResultChart } from '../results/ResultChart';
import type { ChartLimits } from '../results/chart-limits';
import { DEFAULT_SQL_TOOL_LABELS, type SqlToolLabels } from '../results/labels';
import { bindSpecFields, chartFieldNames, defaultChartSpec, type ChartSpec } from './chart-spec';
import { QueryError } from './query-error';
import { DEFAULT_DATA_VIEW_LABELS, type DataViewLabels } from './labels';
import { useResultQuery, type DataViewSource, type ViewQuery } from './use-result-query';
import { named } from '../part';

/** Props of {@link QueryChart}; other props go to its root `<div>`. */
export interface QueryChartProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children' | 'title'>, DataViewSource {
  /** The query: a JSON query (`/v1/load`), or SQL (`/v1/cubesql`, measures as `MEASURE(view.measure)`). */
  query: ViewQuery;
  /**
   * A Vega-Lite spec (JSON text or an object), as `ResultChart` takes it, drawn with the query's
   * rows; fields name the result's columns as the query does (`orders.total_revenue`). Default: a
   * spec chosen from the result's shape (a date column: a line; a text column: bars; two numbers:
   * a scatter plot), titled and formatted like the table's columns.
   */
  spec?: string | Record<string, unknown>;
  /** What the chart shows: drawn as its title (when the spec has none) and its accessible name. */
  title?: string;
  /** Limits on what the spec may make the page do, over `DEFAULT_CHART_LIMITS` (see `ResultChart`). */
  limits?: Partial<ChartLimits>;
  /** UI strings of this view over the English defaults; see `DataViewLabels`. */
  labels?: Partial<DataViewLabels>;
  /** UI strings of the chart itself (its loading name, error cards); see `SqlToolLabels`. */
  resultLabels?: Partial<SqlToolLabels>;
}

/** Height of the skeleton while the query runs: the spec's own height and room for axes, else 360 px. */
function skeletonHeight(spec: unknown): number {
  const height = typeof spec === 'object' && spec !== null ? (spec as { height?: unknown }).height : undefined;
  return typeof height === 'number' && Number.isFinite(height) && height > 0 ? Math.min(height, 2000) + 60 : 360;
}

/** The caller's spec as an object, or as given when it is not JSON (the chart's error card says so). */
function parsedSpec(spec: string | Record<string, unknown> | undefined): ChartSpec | string | undefined {
  if (typeof spec !== 'string') return spec;
  try {
    const value: unknown = JSON.parse(spec);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ChartSpec) : spec;
  } catch {
    return spec;
  }
}

/**
 * A chart of a query's result (`data-part="query-chart"`): the query runs through TanStack Query
 * (with `dataQueryOptions`' or `sqlQueryOptions`' key, so a server's prefetch hydrates it), and
 * its rows are drawn by `ResultChart`, the chat's chart: the same safe spec handling (no request,
 * no code, limits), lazily loaded Vega and the `--service-chart-*` theme.
 *
 * `data-state` is `loading` (a skeleton of the chart's size; what a server renders without a
 * prefetch), `error` (the query failed, with a retry button, or the result has no number to draw)
 * or `ready` (then the inner `data-part="chart"` has its own state while Vega draws).
 */
export const QueryChart = /*#__PURE__*/ named(
  /*#__PURE__*/ forwardRef<HTMLDivElement, QueryChartProps>(function QueryChart(props, ref) {
    const {
      query,
      spec,
      title,
      limits,
      labels: givenLabels,
      resultLabels,
      settings,
      queryClient,
      className,
      ...rest
    } = props;
    const labels = useMemo(() => ({ ...DEFAULT_DATA_VIEW_LABELS, ...givenLabels }), [givenLabels]);
    const result = useResultQuery(query, { settings, queryClient });
    const given = useMemo(() => parsedSpec(spec), [spec]);
    const chart = useMemo(() => {
      const view = result.data;
      if (!view) return undefined;
      const fields = chartFieldNames(view.columns);
      const columns = view.columns.map((column, index) => ({ ...column, name: fields[index]! }));
      let drawn: ChartSpec | string | undefined;
      if (given === undefined) drawn = defaultChartSpec(view.columns, fields, { title, rowCount: view.rows.length });
      else if (typeof given === 'string') drawn = given;
      else
        drawn = bindSpecFields(
          given,
          new Map(view.columns.map((column, index) => [column.name, fields[index]!])),
          new Map(view.columns.map((column) => [column.name, columnTitle(column)])),
        );
      return { spec: drawn, columns, rows: view.rows };
    }, [result.data, given, title]);

    const state = result.isPending
      ? 'loading'
      : result.error || (chart && chart.spec === undefined)
        ? 'error'
        : 'ready';
    return (
      <div
        {...rest}
        ref={ref}
        className={className ? `service-query-chart ${className}` : 'service-query-chart'}
        data-part="query-chart"
        data-state={state}
        aria-busy={state === 'loading' || undefined}
      >
        {state === 'loading' ? (
          <div
            className="service-result-chart__skeleton"
            role="img"
            aria-label={title ? `${labels.loading} ${title}` : labels.loading}
            style={{ height: skeletonHeight(given) }}
          />
        ) : result.error ? (
          <QueryError error={result.error} labels={labels} onRetry={() => void result.refetch()} />
        ) : chart?.spec === undefined ? (
          <ErrorCard title={{ ...DEFAULT_SQL_TOOL_LABELS, ...resultLabels }.chartError}>
            {labels.chartNoNumbers}
          </ErrorCard>
        ) : (
          <ResultChart
            spec={chart.spec}
            columns={chart.columns}
            rows={chart.rows}
            {...(title === undefined ? {} : { title })}
            labels={resultLabels}
            limits={limits}
          />
        )}
      </div>
    );
  }),
  'QueryChart',
);
