/**
 * Numbers and dates in the page's locale and time zone.
 *
 * @module
 */
import type { MemberAnnotation } from '../../../core/protocol/data';

/** Formats values of query results and times for one locale and time zone. */
export interface Formatter {
  readonly locale: string;
  readonly timezone: string;
  /** A value of a result cell, by its member's annotation. */
  cell(value: unknown, annotation: MemberAnnotation | undefined, granularity?: string): string;
  /** A number as the member's format says (`currency` is USD). */
  number(value: number, format?: unknown): string;
  /** A number in its short form (`37.2M`, `$1.5K`), for tiles. */
  compact(value: number, format?: unknown): string;
  /** A moment (epoch ms) as a date and time in the page's time zone. */
  moment(epochMs: number): string;
}

/** Creates a formatter for `locale` and `timezone` (an IANA name). */
export function createFormatter(locale: string, timezone: string): Formatter {
  const plain = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const currency = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
  const moment = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone: timezone });
  const dates = new Map<string, Intl.DateTimeFormat>();
  // Result times are wall-clock times already in the query's time zone: format them as UTC so
  // they are shown as they are, not shifted a second time.
  const dateFormat = (granularity: string | undefined): Intl.DateTimeFormat => {
    const key = granularity ?? '';
    let format = dates.get(key);
    if (!format) {
      const options: Intl.DateTimeFormatOptions =
        granularity === 'year'
          ? { year: 'numeric' }
          : granularity === 'month' || granularity === 'quarter'
            ? { year: 'numeric', month: 'short' }
            : granularity === 'day' || granularity === 'week'
              ? { year: 'numeric', month: 'short', day: 'numeric' }
              : { dateStyle: 'medium', timeStyle: 'short' };
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
      dates.set(key, format);
    }
    return format;
  };
  const compactPlain = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const compactCurrency = new Intl.NumberFormat(locale, {
    notation: 'compact',
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 1,
  });
  const number = (value: number, format?: unknown): string => (format === 'currency' ? currency : plain).format(value);
  return {
    locale,
    timezone,
    number,
    compact: (value, format) => (format === 'currency' ? compactCurrency : compactPlain).format(value),
    moment: (epochMs) => moment.format(epochMs),
    cell(value, annotation, granularity) {
      if (value === null || value === undefined) return '–';
      const type = annotation?.type;
      if (type === 'number' && value !== '') {
        const parsed = Number(value);
        if (Number.isFinite(parsed)) return number(parsed, annotation?.['format']);
      }
      if (type === 'time' && typeof value === 'string') {
        const parsed = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
        if (Number.isFinite(parsed)) return dateFormat(granularity).format(parsed);
      }
      return String(value);
    },
  };
}
