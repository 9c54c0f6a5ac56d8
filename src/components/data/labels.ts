/**
 * Every UI string of `MetricCard`, `QueryChart` and `QueryTable`, replaceable through their
 * `labels` prop: plain strings, or functions of what the text is about (numbers arrive already
 * formatted for the locale, with `format` where a label counts). The result views they are built
 * on (`ResultTable`, `ResultChart`) keep their own labels, passed through `resultLabels`.
 *
 * @module
 */

/** Which way a metric moved against the comparison period. */
export type MetricDirection = 'up' | 'down' | 'flat';

import type { MetricComparison } from '../../core/data-compare';

/** A metric's change against the comparison period, as the labels describe it. */
export interface MetricChange {
  /** What the metric is compared with: `MetricCard`'s `compare`. */
  compare: MetricComparison;
  /** Which way it moved. */
  direction: MetricDirection;
  /** The relative change without its sign, formatted (`12.5%`); empty when the previous value was 0. */
  change: string;
  /** The previous period's value, formatted like the metric (`$1,100.00`). */
  previous: string;
}

/** Formats a count in the view's locale. */
export type FormatCount = (value: number) => string;

/** UI strings of the data views. Defaults in {@link DEFAULT_DATA_VIEW_LABELS}. */
export interface DataViewLabels {
  /** Accessible name of a view while its query runs. */
  loading: string;
  /** Heading of the error state of a view whose query failed; the error's message follows. */
  queryError: string;
  /** Button running a failed query again. */
  retry: string;
  /** A metric whose query returned no rows (or a `NULL`). */
  noValue: string;
  /** The visible words after a metric's change: which period it is compared with (`compare` of the card). */
  comparisonPeriod: (compare: MetricComparison) => string;
  /** The whole comparison, for assistive technology: direction, change and the previous value. */
  comparison: (change: MetricChange) => string;
  /** A chart whose result has no number to draw. */
  chartNoNumbers: string;
  /** Button loading the next rows of a table. */
  loadMore: string;
  /** While the next rows load. */
  loadingMore: string;
  /** Under a table that may have more rows: how many are loaded. */
  loadedRows: (count: number, format: FormatCount) => string;
}

/** Words of a direction in the default comparison sentence. */
const DIRECTION_WORDS: Readonly<Record<MetricDirection, string>> = { up: 'Up', down: 'Down', flat: 'No change' };

/** The comparison period in the default labels. */
function periodOf(compare: MetricComparison): string {
  return compare === 'previousYear'
    ? 'previous year'
    : compare === 'previousPeriod'
      ? 'previous period'
      : 'comparison period';
}

/** The English defaults of {@link DataViewLabels}. */
export const DEFAULT_DATA_VIEW_LABELS: Readonly<DataViewLabels> = /*#__PURE__*/ Object.freeze({
  loading: 'Loading…',
  queryError: 'The data could not be loaded',
  retry: 'Try again',
  noValue: 'No data',
  comparisonPeriod: (compare: MetricComparison) => `vs. ${periodOf(compare)}`,
  comparison: ({ direction, change, previous, compare }: MetricChange) =>
    direction === 'flat' || change === ''
      ? `${DIRECTION_WORDS[direction]} from ${previous} in the ${periodOf(compare)}`
      : `${DIRECTION_WORDS[direction]} ${change} from ${previous} in the ${periodOf(compare)}`,
  chartNoNumbers: 'The result has no numbers to chart.',
  loadMore: 'Load more',
  loadingMore: 'Loading more rows…',
  loadedRows: (count: number, format: FormatCount) => `${format(count)} ${count === 1 ? 'row' : 'rows'} loaded`,
});
