import { useQuery } from '@tanstack/react-query';
import { forwardRef, useId, useMemo, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import type { DataQuery, DataQueryResult, SqlQueryResult } from '../../core/data-query';
import { toResultView, type ResultView } from '../../core/data-result';
import { ServiceConfigError, type ServiceError } from '../../core/errors';
import { columnTitle, describeColumn, formatValue, type FormatColumn } from '../../core/format-value';
import { parseNumberCell } from '../../core/result-data';
import { comparisonQuery, type MetricComparison } from '../../core/data-compare';
import { QueryError } from './query-error';
import { DEFAULT_DATA_VIEW_LABELS, type DataViewLabels, type MetricDirection } from './labels';
import { useViewSource, viewQueryOptions, type DataViewSource } from './use-result-query';
import { named } from '../part';

/** Props of {@link MetricCard}; other props go to its root `<div>`. */
export interface MetricCardProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children' | 'title'>, DataViewSource {
  /**
   * The JSON query of the metric: one measure (the first of `measures`, or {@link measure}), no
   * dimensions, so the data API answers one row. A date range on a time dimension sets the period.
   */
  query: DataQuery;
  /** The measure shown, when the query has several. Default: the first of `query.measures`. */
  measure?: string;
  /** The card's title. Default: the measure's short title from the annotation ("Revenue"). */
  title?: string;
  /**
   * Compares the value with another period: `'previousPeriod'` (the range just before, as long as
   * the query's; `'this month'` gives `'last month'`), `'previousYear'` (the same dates a year
   * earlier; explicit ranges only), or a date range of your own. The query's first time dimension
   * with a `dateRange` is the one moved. Default: no comparison.
   */
  compare?: MetricComparison;
  /** Which way is good news for this metric (styling `data-sentiment`): `up` (revenue) or `down` (churn). Default `up`. */
  positiveDirection?: 'up' | 'down';
  /**
   * How the value reads, over what the annotation says: `format` (`currency`, `percent`),
   * `currency` (ISO 4217 code), `fractionDigits`. Default: the annotation's format.
   */
  valueFormat?: Partial<Pick<FormatColumn, 'format' | 'currency' | 'fractionDigits'>>;
  /** Locale of the numbers, a BCP-47 tag. Default: the browser's (the server's in a server render). */
  locale?: string;
  /** UI strings over the English defaults; see `DataViewLabels`. */
  labels?: Partial<DataViewLabels>;
}

/** The metric's value and column in a result, or why it has none. */
function metricOf(view: ResultView, measure: string): { column: FormatColumn; value: unknown } | { problem: string } {
  const index = view.columns.findIndex((column) => column.name === measure);
  if (index === -1) return { problem: `the result has no measure ${JSON.stringify(measure)}` };
  return { column: view.columns[index]!, value: view.rows[0]?.[index] ?? null };
}

function directionOf(current: number, previous: number): MetricDirection {
  return current > previous ? 'up' : current < previous ? 'down' : 'flat';
}

const ARROWS: Readonly<Record<MetricDirection, string>> = { up: '▲', down: '▼', flat: '■' };

/** The change against the compared period: an arrow and the relative change, said in full to assistive technology. */
function MetricDelta(props: {
  value: number;
  previous: { value: number; text: string };
  compare: MetricComparison;
  positiveDirection: 'up' | 'down';
  locale: string | undefined;
  labels: DataViewLabels;
}): ReactNode {
  const { value, previous, compare, positiveDirection, locale, labels } = props;
  const direction = directionOf(value, previous.value);
  const ratio = previous.value === 0 ? undefined : Math.abs((value - previous.value) / previous.value);
  const change =
    ratio === undefined
      ? ''
      : formatValue(ratio, { name: 'change', type: 'number', format: 'percent', fractionDigits: 1 }, locale);
  const sentiment = direction === 'flat' ? 'neutral' : direction === positiveDirection ? 'positive' : 'negative';
  return (
    <p
      className="service-metric-card__comparison"
      data-part="metric-comparison"
      data-direction={direction}
      data-sentiment={sentiment}
    >
      <span aria-hidden="true">
        <span className="service-metric-card__arrow">{ARROWS[direction]}</span> {change}{' '}
        <span className="service-metric-card__period">{labels.comparisonPeriod(compare)}</span>
      </span>
      <span className="service-visually-hidden">
        {labels.comparison({ direction, change, previous: previous.text || labels.noValue, compare })}
      </span>
    </p>
  );
}

/** The metric's queries (the value's, and the compared period's) and what the card shows of them. */
function useMetric(
  query: DataQuery,
  measure: string | undefined,
  compare: MetricComparison | undefined,
  settings: ReturnType<typeof useViewSource>['settings'],
  client: ReturnType<typeof useViewSource>['client'],
) {
  const previousQuery = useMemo(
    () => (compare === undefined ? undefined : comparisonQuery(query, compare)),
    [query, compare],
  );
  // A card that cannot show its metric says so without asking the data API anything.
  const configProblem =
    measure === undefined
      ? 'the query has no measure'
      : previousQuery && !previousQuery.ok
        ? previousQuery.reason
        : undefined;
  const current = useQuery<DataQueryResult | SqlQueryResult, ServiceError, ResultView>(
    { ...viewQueryOptions(query, settings), select: toResultView, enabled: configProblem === undefined },
    client,
  );
  const previous = useQuery<DataQueryResult | SqlQueryResult, ServiceError, ResultView>(
    {
      ...viewQueryOptions(previousQuery?.ok ? previousQuery.query : query, settings),
      select: toResultView,
      enabled: previousQuery?.ok === true,
    },
    client,
  );

  const metric = current.data && measure !== undefined ? metricOf(current.data, measure) : undefined;
  const previousMetric =
    previousQuery?.ok && previous.data && measure !== undefined ? metricOf(previous.data, measure) : undefined;
  const problem =
    configProblem ??
    (metric && 'problem' in metric ? metric.problem : undefined) ??
    (previousMetric && 'problem' in previousMetric ? previousMetric.problem : undefined);
  const error: Error | null = problem
    ? new ServiceConfigError(`MetricCard: ${problem}`)
    : (current.error ?? (previousQuery?.ok ? previous.error : null));
  const loading = !error && (current.isPending || (previousQuery?.ok === true && previous.isPending));
  const state = error ? 'error' : loading ? 'loading' : 'ready';

  return { current, previous, previousQuery, metric, previousMetric, problem, error, state };
}

/**
 * One measure as a KPI tile (`data-part="metric-card"`): its title from the annotation, its value
 * formatted by the annotation's format and the locale (`$1,234,567.89`), and with `compare` its
 * change against another period: an arrow and the relative change (`▲ 12.5% vs. previous period`,
 * `data-direction` `up | down | flat`, `data-sentiment` `positive | negative | neutral`), said in
 * full to assistive technology ("Up 12.5% from $1,100.00 in the previous period").
 *
 * `data-state` is `loading` (a skeleton of the title and value, `aria-busy`), `error` (the error
 * and a retry button) or `ready`. The query runs through TanStack Query with `dataQueryOptions`'
 * key, so a server's prefetch of `dataQueryOptions(query, settings)` hydrates it; a server render
 * without one renders the skeleton. Its settings are `ServiceProvider`'s `data` unless given.
 */
export const MetricCard = /*#__PURE__*/ named(
  /*#__PURE__*/ forwardRef<HTMLDivElement, MetricCardProps>(function MetricCard(props, ref) {
    const {
      query,
      measure: givenMeasure,
      title: givenTitle,
      compare,
      positiveDirection = 'up',
      valueFormat,
      locale,
      labels: givenLabels,
      settings: givenSettings,
      queryClient: givenClient,
      className,
      ...rest
    } = props;
    const labels = useMemo(() => ({ ...DEFAULT_DATA_VIEW_LABELS, ...givenLabels }), [givenLabels]);
    const titleId = useId();
    const { settings, client } = useViewSource({ settings: givenSettings, queryClient: givenClient });
    const measure = givenMeasure ?? query.measures?.[0];
    const { current, previous, previousQuery, metric, previousMetric, problem, error, state } = useMetric(
      query,
      measure,
      compare,
      settings,
      client,
    );

    let body: ReactNode;
    let title = givenTitle;
    if (metric && 'column' in metric) {
      const column = describeColumn({ ...metric.column, ...valueFormat }, [metric.value]);
      title ??= columnTitle(column);
      const value = parseNumberCell(metric.value);
      const comparison =
        previousMetric && 'column' in previousMetric
          ? { value: parseNumberCell(previousMetric.value), text: formatValue(previousMetric.value, column, locale) }
          : undefined;
      const delta =
        comparison && value !== undefined && comparison.value !== undefined ? (
          <MetricDelta
            value={value}
            previous={{ value: comparison.value, text: comparison.text }}
            compare={compare!}
            positiveDirection={positiveDirection}
            locale={locale}
            labels={labels}
          />
        ) : null;
      body = (
        <>
          <p className="service-metric-card__value" data-part="metric-value">
            {metric.value === null || metric.value === undefined
              ? labels.noValue
              : formatValue(metric.value, column, locale)}
          </p>
          {delta}
        </>
      );
    }

    return (
      <div
        {...rest}
        ref={ref}
        className={className ? `service-metric-card ${className}` : 'service-metric-card'}
        data-part="metric-card"
        data-state={state}
        role="group"
        aria-labelledby={titleId}
        aria-busy={state === 'loading' || undefined}
      >
        <p className="service-metric-card__title" id={titleId}>
          {title ??
            (state === 'loading' ? (
              <>
                <span className="service-metric-card__skeleton" data-size="title" aria-hidden="true" />
                <span className="service-visually-hidden">{labels.loading}</span>
              </>
            ) : (
              measure
            ))}
        </p>
        {state === 'loading' ? (
          <span className="service-metric-card__skeleton" data-part="metric-skeleton" aria-hidden="true" />
        ) : state === 'error' ? (
          <QueryError
            error={error!}
            labels={labels}
            onRetry={
              problem
                ? undefined
                : () => {
                    void current.refetch();
                    if (previousQuery?.ok) void previous.refetch();
                  }
            }
          />
        ) : (
          body
        )}
      </div>
    );
  }),
  'MetricCard',
);
