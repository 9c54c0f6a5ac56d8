/**
 * Values of query results as people read them: column names as titles ("Total revenue", not
 * `total_revenue`), numbers and dates in a locale, one number of decimals per column (so a column
 * reads evenly and lines up on its decimal point), currency where the column's format says so,
 * and counts with the locale's plural rules. Framework-free: the result table uses it, and so can
 * any view of query results.
 *
 * @module
 */
import { columnKind, parseNumberCell, parseTemporalCell, cellText, type ResultColumn } from './result-data';

/** How a column's numbers are meant: the `format` of a member's annotation or metadata. */
export type ValueFormat = 'number' | 'currency' | 'percent';

/** How much of a date and time a temporal column's values carry. */
export type TemporalGranularity = 'year' | 'quarter' | 'month' | 'day' | 'minute' | 'second' | 'millisecond';

/** A column with what {@link formatValue} needs to know about it beyond its name and type. */
export interface FormatColumn extends ResultColumn {
  /** Its human title, when the data model has one (a member's `title`). Default: the name, humanised. */
  title?: string;
  /** How its numbers are meant (`currency`, `percent`: ratios, 0.25 is 25 %). Default: plain numbers. */
  format?: ValueFormat | (string & {});
  /** ISO 4217 code of a `currency` column. Default `USD`. */
  currency?: string;
  /** Decimals every number of the column shows. Default: as many as the value has (at most 4). */
  fractionDigits?: number;
  /** What a temporal column's values carry. Default `second`, or `day` for values at midnight. */
  granularity?: TemporalGranularity;
}

/** Words kept in capitals when a name is humanised. */
const ACRONYMS = /*#__PURE__*/ new Set([
  'id',
  'ids',
  'url',
  'sql',
  'api',
  'usd',
  'eur',
  'gbp',
  'kpi',
  'aov',
  'utc',
  'iso',
  'sku',
]);

/**
 * A column or member name as a title: `total_revenue` is "Total revenue", `orders.created_at`
 * "Created at", `customerId` "Customer ID". A name that already has spaces only gets its first
 * letter raised.
 */
export function humanizeName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') return name;
  if (/\s/.test(trimmed)) return trimmed[0]!.toUpperCase() + trimmed.slice(1);
  // A member name `view.member`: the view is the table's subject, not part of the column's title.
  const base = trimmed.includes('.') ? trimmed.slice(trimmed.lastIndexOf('.') + 1) || trimmed : trimmed;
  const words = base
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  if (words.length === 0) return name;
  const [first, ...rest] = words;
  return [first![0]!.toUpperCase() + first!.slice(1), ...rest].join(' ');
}

/** The title a column shows: its `title`, else its name humanised. */
export function columnTitle(column: Pick<FormatColumn, 'name' | 'title'>): string {
  return column.title?.trim() ? column.title : humanizeName(column.name);
}

const formatters = /*#__PURE__*/ new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();

/** One formatter per locale and options: building an `Intl` formatter costs far more than using it. */
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    if (formatters.size > 200) formatters.clear();
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached(`n|${locale ?? ''}|${JSON.stringify(options)}`, () => {
    try {
      return new Intl.NumberFormat(locale, options);
    } catch {
      // An unknown currency code or locale: the plain number still reads.
      return new Intl.NumberFormat(locale === undefined ? undefined : [], {
        maximumFractionDigits: options.maximumFractionDigits ?? 4,
      });
    }
  });
}

function dateFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`d|${locale ?? ''}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** Decimals in a number's text (`12.50` has 2, `1e-7` has 7). */
function decimalsOf(text: string): number {
  const match = /^[-+]?\d*(?:\.(\d*))?(?:e([-+]?\d+))?$/i.exec(text.trim());
  if (!match) return 0;
  return Math.max(0, (match[1]?.replace(/0+$/, '').length ?? 0) - Number(match[2] ?? 0));
}

const MAX_DECIMALS = 4;
const DECIMAL_TYPE = /^decimal\s*\(\s*\d+\s*,\s*(\d+)\s*\)/i;

const DATE_OPTIONS: Record<TemporalGranularity, Intl.DateTimeFormatOptions> = {
  year: { year: 'numeric' },
  quarter: { year: 'numeric' },
  month: { year: 'numeric', month: 'short' },
  day: { year: 'numeric', month: 'short', day: 'numeric' },
  minute: { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  second: { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' },
  millisecond: {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
  },
};

/**
 * A value of a result cell as text for `locale` (a BCP-47 tag; default the runtime's):
 * numbers grouped, with the column's decimals (every digit of a 64-bit integer kept), as currency
 * or percent when the column's `format` says so; dates and times without ISO notation, as much of
 * them as the column's `granularity` carries; booleans and text as they are; `null` as `''`.
 */
export function formatValue(value: unknown, column: FormatColumn, locale?: string): string {
  if (value === null || value === undefined) return '';
  const kind = columnKind(column.type);
  if (kind === 'number' && parseNumberCell(value) !== undefined) return formatNumber(value, column, locale);
  if (kind === 'temporal') {
    const date = parseTemporalCell(value);
    if (date) return formatDate(date, column.granularity ?? 'second', locale);
  }
  return cellText(value);
}

function formatNumber(value: unknown, column: FormatColumn, locale: string | undefined): string {
  const text = cellText(value).trim();
  const number = parseNumberCell(value)!;
  if (!Number.isFinite(number)) return numberFormat(locale, {}).format(number);
  const digits = column.fractionDigits ?? Math.min(decimalsOf(text), MAX_DECIMALS);
  const options: Intl.NumberFormatOptions = { minimumFractionDigits: digits, maximumFractionDigits: digits };
  if (column.format === 'currency') Object.assign(options, { style: 'currency', currency: column.currency ?? 'USD' });
  if (column.format === 'percent') {
    options.style = 'percent';
    return numberFormat(locale, options).format(number);
  }
  // The decimal text, not a Number: every digit of a 64-bit integer stays.
  const exact = /^[-+]?\d+(?:\.\d+)?$/.test(text) ? text : number;
  return numberFormat(locale, options).format(exact as number);
}

function formatDate(date: Date, granularity: TemporalGranularity, locale: string | undefined): string {
  const text = dateFormat(locale, DATE_OPTIONS[granularity]).format(date);
  if (granularity !== 'quarter') return text;
  return `Q${Math.floor(date.getMonth() / 3) + 1} ${text}`;
}

/**
 * `column` with what its values show: for numbers, the decimals that every value of the column
 * gets (the most any value has, at most 4; a `Decimal(p,s)` type's scale; currency 0 or 2); for
 * dates, the granularity they carry (a column of first days of months at midnight reads as months).
 * Settings the column already has are kept.
 */
export function describeColumn(column: FormatColumn, values: Iterable<unknown>): FormatColumn {
  const kind = columnKind(column.type);
  if (kind === 'number' && column.fractionDigits === undefined) {
    const scale = DECIMAL_TYPE.exec(column.type ?? '')?.[1];
    let digits = 0;
    if (scale !== undefined) digits = Math.min(Number(scale), MAX_DECIMALS);
    else
      for (const value of values)
        if (value !== null && value !== undefined) digits = Math.max(digits, decimalsOf(cellText(value)));
    digits = Math.min(digits, MAX_DECIMALS);
    if (column.format === 'currency') digits = digits > 0 ? 2 : 0;
    return { ...column, fractionDigits: digits };
  }
  if (kind === 'temporal' && column.granularity === undefined) {
    let count = 0;
    let midnight = true;
    let firstOfMonth = true;
    let firstOfQuarter = true;
    let firstOfYear = true;
    let wholeMinutes = true;
    let wholeSeconds = true;
    for (const value of values) {
      const date = parseTemporalCell(value);
      if (!date) continue;
      count += 1;
      const atMidnight = date.getHours() === 0 && date.getMinutes() === 0 && date.getSeconds() === 0;
      midnight &&= atMidnight && date.getMilliseconds() === 0;
      firstOfMonth &&= date.getDate() === 1;
      firstOfQuarter &&= date.getMonth() % 3 === 0;
      firstOfYear &&= date.getMonth() === 0;
      wholeMinutes &&= date.getSeconds() === 0 && date.getMilliseconds() === 0;
      wholeSeconds &&= date.getMilliseconds() === 0;
    }
    // One value on the first of a month is as likely a day as a month: the name decides then.
    const name = column.name.toLowerCase();
    const granularity: TemporalGranularity = !midnight
      ? wholeMinutes
        ? 'minute'
        : wholeSeconds
          ? 'second'
          : 'millisecond'
      : firstOfMonth && firstOfYear && (count > 1 || name.includes('year'))
        ? 'year'
        : firstOfMonth && firstOfQuarter && name.includes('quarter')
          ? 'quarter'
          : firstOfMonth && (count > 1 || name.includes('month'))
            ? 'month'
            : 'day';
    return { ...column, granularity };
  }
  return column;
}

/** A label in one form per plural category (`one`, `other`, ...), `other` required. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & {
  /** The form for every count no other category covers. */
  other: string;
};

/** The form of `forms` that `count` takes in `locale` (a plain string is every form). */
export function pluralForm(forms: string | PluralForms, count: number, locale?: string): string {
  if (typeof forms === 'string') return forms;
  const rule = cached(`p|${locale ?? ''}`, () => new Intl.PluralRules(locale)).select(count);
  return forms[rule] ?? forms.other;
}
