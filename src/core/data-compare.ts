/**
 * The query of a metric's comparison period (`MetricCard`'s `compare`): the same query with the
 * date range of its first time dimension moved back. A server that prefetches a card's data
 * prefetches this query too. Explicit ranges (`['2025-07-01', '2025-09-30']`) move by their own
 * length or by a year; relative ones (`'this month'`) become the previous unit (`'last month'`).
 * The data API resolves relative ranges in its own time zone and "today", so nothing here reads
 * the browser's clock.
 *
 * @module
 */
import type { DataQuery } from './data-query';

/** A date range of a time dimension: `[from, to]` (inclusive), or a relative range such as `'this month'`. */
export type DateRange = string | readonly [string, string];

/**
 * What a metric is compared with: the period just before its date range (`previousPeriod`), the
 * same period a year earlier (`previousYear`), or a date range of your own.
 */
export type MetricComparison = 'previousPeriod' | 'previousYear' | DateRange;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;
/** `this week`, `today`: the relative ranges whose previous period the data API can name. */
const PREVIOUS_NAMED: Readonly<Record<string, string>> = {
  today: 'yesterday',
  'this week': 'last week',
  'this month': 'last month',
  'this quarter': 'last quarter',
  'this year': 'last year',
};

/** Epoch ms of a date (`YYYY-MM-DD`) or local date-time, read as UTC so no zone moves it; NaN otherwise. */
function parse(text: string): { time: number; dateOnly: boolean } {
  const day = DATE_ONLY.exec(text);
  if (day) return { time: Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])), dateOnly: true };
  const at = DATE_TIME.exec(text);
  if (at) {
    const [, date, hours, minutes, seconds = '0', millis = '0'] = at;
    const base = parse(date!).time;
    return {
      time:
        base + ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis.padEnd(3, '0')),
      dateOnly: false,
    };
  }
  return { time: Number.NaN, dateOnly: true };
}

function format(time: number, dateOnly: boolean): string {
  const text = new Date(time).toISOString();
  return dateOnly ? text.slice(0, 10) : text.slice(0, 23);
}

/** The same calendar date a year earlier (29 February becomes 28 February). */
function yearEarlier(text: string): string | undefined {
  const { time, dateOnly } = parse(text);
  if (Number.isNaN(time)) return undefined;
  const date = new Date(time);
  const month = date.getUTCMonth();
  date.setUTCFullYear(date.getUTCFullYear() - 1);
  if (date.getUTCMonth() !== month) date.setUTCDate(0);
  return format(date.getTime(), dateOnly);
}

/**
 * The date range `comparison` names for a query whose range is `range`, or `undefined` when it
 * cannot be said (a relative range other than `today` and `this <unit>`, or text that is not a date).
 */
export function comparisonRange(
  range: string | readonly string[],
  comparison: MetricComparison,
): DateRange | undefined {
  if (comparison !== 'previousPeriod' && comparison !== 'previousYear') return comparison;
  if (typeof range === 'string') {
    const named = PREVIOUS_NAMED[range.trim().toLowerCase()];
    if (comparison === 'previousPeriod') return named;
    return undefined;
  }
  const [from, to] = range;
  if (from === undefined || to === undefined || range.length !== 2) return undefined;
  if (comparison === 'previousYear') {
    const earlierFrom = yearEarlier(from);
    const earlierTo = yearEarlier(to);
    return earlierFrom && earlierTo ? [earlierFrom, earlierTo] : undefined;
  }
  const start = parse(from);
  const end = parse(to);
  if (Number.isNaN(start.time) || Number.isNaN(end.time) || end.time < start.time) return undefined;
  // Inclusive ranges: a range of whole days ends on its last day, one of times on its last instant.
  const step = start.dateOnly && end.dateOnly ? DAY_MS : 1;
  const length = end.time - start.time + step;
  return [format(start.time - length, start.dateOnly), format(start.time - step, end.dateOnly)];
}

/** What {@link comparisonQuery} gives: the comparison's query, or why there is none. */
export type ComparisonQueryResult =
  | {
      /** The comparison can be made. */
      ok: true;
      /** The query of the comparison period. */
      query: DataQuery;
    }
  | {
      /** The comparison cannot be made. */
      ok: false;
      /** Why, in words for the card's error state. */
      reason: string;
    };

/**
 * `query` with the date range of its first time dimension that has one replaced by the range
 * `comparison` names, or a reason it cannot be compared: the query `MetricCard` runs for its
 * comparison, for a server to prefetch with `dataQueryOptions`.
 *
 * ```ts
 * const previous = comparisonQuery(revenueThisMonth, 'previousPeriod');
 * if (previous.ok) await queryClient.prefetchQuery(dataQueryOptions(previous.query, settings));
 * ```
 */
export function comparisonQuery(query: DataQuery, comparison: MetricComparison): ComparisonQueryResult {
  const dimensions = query.timeDimensions ?? [];
  const index = dimensions.findIndex((dimension) => dimension.dateRange !== undefined);
  if (index === -1)
    return { ok: false, reason: 'the query has no time dimension with a dateRange to compare with another period' };
  const range = dimensions[index]!.dateRange!;
  const previous = comparisonRange(range, comparison);
  if (previous === undefined)
    return {
      ok: false,
      reason: `the period before ${JSON.stringify(range)} cannot be worked out: pass compare as a date range`,
    };
  const timeDimensions = dimensions.map((dimension, at) =>
    at === index ? { ...dimension, dateRange: previous } : dimension,
  );
  return { ok: true, query: { ...query, timeDimensions } };
}
