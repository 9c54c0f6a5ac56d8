/**
 * The JSON query of `/v1/load` (behaviour 3): checked against the model, compiled to one SQL query
 * over a view, run on a connection scoped to the caller, and answered as
 * `{ query, data, annotation, lastRefreshTime }` with every value a string.
 *
 * Choices where the documentation is silent, as the service's query engine behaves:
 * - All members of one query belong to one view.
 * - Dimensions-only queries are grouped (distinct rows).
 * - Default order: the first time dimension with a granularity ascending, else the first measure
 *   descending, else the first dimension ascending.
 * - `limit` defaults to {@link DEFAULT_LIMIT} and is capped at {@link MAX_LIMIT}.
 * - Date ranges are inclusive, in the query's time zone; a date-only end includes its whole day.
 *   Relative ranges: `today`, `yesterday`, `this <unit>`, `last <unit>` and `last N <unit>s` (the N
 *   whole units before the current one; N at most {@link MAX_RELATIVE_UNITS}), units `day`, `week`
 *   (from Monday), `month`, `quarter`, `year`. The emulator resolves them against the last day of
 *   its data, 2025-12-31 (`DATA_REFERENCE_DAY` of `world.ts`), never against today's date.
 * - Date operators on a date-only value take its whole day: `beforeDate` is before its start,
 *   `afterOrOnDate` from its start, `beforeOrOnDate` to its end, `afterDate` after its end. So
 *   `afterDate` and `beforeOrOnDate` of one date split the rows with a date in two, and so do
 *   `beforeDate` and `afterOrOnDate` (as the service's query engine pads such values). A value
 *   with a time of day is that instant for all four.
 * - `notContains`, `notStartsWith`, `notEndsWith`, `notEquals`, `notInDateRange` keep `NULL`s.
 * - `and`/`or` groups nest at most {@link MAX_FILTER_DEPTH} deep.
 * - Time values are `YYYY-MM-DDTHH:mm:ss.SSS` in the query's time zone; a time dimension with a
 *   granularity answers under both `view.dim.granularity` and `view.dim`.
 *
 * @module
 */
import {
  FILTER_OPERATORS,
  type Filter,
  type FilterOperator,
  type LoadAnnotation,
  type LoadQuery,
  type LoadResponse,
  type MemberAnnotation,
  type OrderDirection,
  type TimeDimension,
} from '../../core/protocol/data';
import { resultTooLarge } from './cubesql';
import { type DataEngine, type QueryScope, cellFormatter } from './engine';
import { MAX_QUERY_BYTES, MAX_QUERY_ROWS } from '../world';
import {
  measureSql,
  quoteIdent,
  resolveMember,
  sqlString,
  type DimensionModel,
  type ResolvedMember,
  type ViewModel,
} from './model';

/** Rows a query returns when it sets no `limit`. */
export const DEFAULT_LIMIT = 10_000;
/** Largest `limit` honoured; larger limits are capped to it. */
export const MAX_LIMIT = 50_000;
/** Deepest nesting of `and`/`or` filter groups; deeper is a 400 user error. */
export const MAX_FILTER_DEPTH = 32;
/** Largest N of a relative range `last N <unit>s`: more reaches before year 1 for some units. */
export const MAX_RELATIVE_UNITS = 10_000;

/** Granularities of time dimensions. */
export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
type Granularity = (typeof GRANULARITIES)[number];

/** A problem with the query itself: answered as 400 `{"type":"UserError","error"}`. */
export class UserError extends Error {
  override readonly name = 'UserError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Checking the query
// ---------------------------------------------------------------------------------------------

function stringArray(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new UserError(`${field} must be an array of member names such as "orders.count"`);
  }
  return value as string[];
}

function isFilterOperator(value: unknown): value is FilterOperator {
  return FILTER_OPERATORS.some((operator) => operator === value);
}

function checkFilter(value: unknown, path: string, depth = 1): Filter {
  if (!isRecord(value)) throw new UserError(`${path} must be an object`);
  if ('and' in value || 'or' in value) {
    if (depth > MAX_FILTER_DEPTH)
      throw new UserError(`filters are nested more than ${MAX_FILTER_DEPTH} and/or groups deep`);
    const key = 'and' in value ? 'and' : 'or';
    const list = value[key];
    if (!Array.isArray(list)) throw new UserError(`${path}.${key} must be an array of filters`);
    const filters = list.map((item, index) => checkFilter(item, `${path}.${key}[${index}]`, depth + 1));
    return key === 'and' ? { and: filters } : { or: filters };
  }
  // `dimension` is the older name of `member`; the service still accepts it.
  const member = value['member'] ?? value['dimension'];
  if (typeof member !== 'string') throw new UserError(`${path}.member must be a member name such as "orders.status"`);
  const operator = value['operator'];
  if (!isFilterOperator(operator)) {
    throw new UserError(
      `${path}.operator must be one of ${FILTER_OPERATORS.join(', ')} (got ${JSON.stringify(operator)})`,
    );
  }
  const rawValues = value['values'];
  if (
    rawValues !== undefined &&
    (!Array.isArray(rawValues) ||
      !rawValues.every((item) => typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean'))
  ) {
    throw new UserError(`${path}.values must be an array of strings`);
  }
  const values = rawValues === undefined ? undefined : (rawValues as unknown[]).map(String);
  return values === undefined ? { member, operator } : { member, operator, values };
}

function checkTimeDimension(value: unknown, path: string): TimeDimension {
  if (!isRecord(value) || typeof value['dimension'] !== 'string')
    throw new UserError(`${path}.dimension must be a time dimension such as "orders.created_at"`);
  const granularity = value['granularity'];
  if (
    granularity !== undefined &&
    granularity !== null &&
    !GRANULARITIES.some((candidate) => candidate === granularity)
  ) {
    throw new UserError(`${path}.granularity must be one of ${GRANULARITIES.join(', ')}`);
  }
  const dateRange = value['dateRange'];
  const rangeOk =
    dateRange === undefined ||
    dateRange === null ||
    typeof dateRange === 'string' ||
    (Array.isArray(dateRange) && dateRange.length === 2 && dateRange.every((item) => typeof item === 'string'));
  if (!rangeOk) throw new UserError(`${path}.dateRange must be [from, to] or a relative range such as "last 6 months"`);
  return {
    dimension: value['dimension'],
    ...(typeof granularity === 'string' ? { granularity } : {}),
    ...(dateRange === undefined || dateRange === null ? {} : { dateRange: dateRange as string | [string, string] }),
  };
}

function checkOrder(value: unknown): [string, OrderDirection][] | undefined {
  if (value === undefined || value === null) return undefined;
  const direction = (item: unknown, member: string): OrderDirection => {
    if (item === 'asc' || item === 'desc') return item;
    throw new UserError(`order of ${member} must be "asc" or "desc"`);
  };
  if (Array.isArray(value)) {
    return value.map((pair) => {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string')
        throw new UserError('order must be an object or an array of [member, "asc" | "desc"] pairs');
      return [pair[0], direction(pair[1], pair[0])];
    });
  }
  if (isRecord(value)) return Object.entries(value).map(([member, item]) => [member, direction(item, member)]);
  throw new UserError('order must be an object or an array of [member, "asc" | "desc"] pairs');
}

function checkCount(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0)
    throw new UserError(`${field} must be a whole number of 0 or more`);
  return number;
}

/** A query after checking: the shape of {@link LoadQuery} with every field present. */
interface CheckedQuery {
  measures: string[];
  dimensions: string[];
  segments: string[];
  timeDimensions: TimeDimension[];
  filters: Filter[];
  order: [string, OrderDirection][] | undefined;
  limit: number | undefined;
  offset: number | undefined;
  timezone: string;
}

/** Checks the shape of one JSON query; throws {@link UserError}. */
export function checkLoadQuery(value: unknown, isValidTimeZone: (timezone: string) => boolean): CheckedQuery {
  if (!isRecord(value))
    throw new UserError('query must be an object { measures, dimensions, timeDimensions, filters, ... }');
  const timezone = value['timezone'] ?? 'UTC';
  if (typeof timezone !== 'string' || !isValidTimeZone(timezone))
    throw new UserError(`Unknown timezone ${JSON.stringify(timezone)}: use an IANA name such as "Europe/Berlin"`);
  const timeDimensions = value['timeDimensions'];
  if (timeDimensions !== undefined && timeDimensions !== null && !Array.isArray(timeDimensions))
    throw new UserError('timeDimensions must be an array');
  const filters = value['filters'];
  if (filters !== undefined && filters !== null && !Array.isArray(filters))
    throw new UserError('filters must be an array');
  const checked: CheckedQuery = {
    measures: stringArray(value['measures'], 'measures'),
    dimensions: stringArray(value['dimensions'], 'dimensions'),
    segments: stringArray(value['segments'], 'segments'),
    timeDimensions: (timeDimensions ?? []).map((item: unknown, index: number) =>
      checkTimeDimension(item, `timeDimensions[${index}]`),
    ),
    filters: (filters ?? []).map((item: unknown, index: number) => checkFilter(item, `filters[${index}]`)),
    order: checkOrder(value['order']),
    limit: checkCount(value['limit'], 'limit'),
    offset: checkCount(value['offset'], 'offset'),
    timezone,
  };
  if (checked.segments.length > 0)
    throw new UserError(`Unknown segment ${checked.segments[0]}: the views define no segments`);
  if (checked.measures.length + checked.dimensions.length + checked.timeDimensions.length === 0) {
    throw new UserError(
      'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid',
    );
  }
  return checked;
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

function pad(value: number, length = 2): string {
  return String(value).padStart(length, '0');
}

function dateText(date: LocalDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** Calendar arithmetic on local dates through UTC, which has no daylight saving gaps. */
function addDays(date: LocalDate, days: number): LocalDate {
  const time = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: time.getUTCFullYear(), month: time.getUTCMonth() + 1, day: time.getUTCDate() };
}

function addMonths(date: LocalDate, months: number): LocalDate {
  const time = new Date(Date.UTC(date.year, date.month - 1 + months, 1));
  return { year: time.getUTCFullYear(), month: time.getUTCMonth() + 1, day: 1 };
}

function today(now: number, timezone: string): LocalDate {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(now));
  const part = (type: string) => Number(parts.find((item) => item.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

type Unit = 'day' | 'week' | 'month' | 'quarter' | 'year';

function startOfUnit(date: LocalDate, unit: Unit): LocalDate {
  switch (unit) {
    case 'day':
      return date;
    case 'week': {
      const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
      return addDays(date, -((weekday + 6) % 7));
    }
    case 'month':
      return { ...date, day: 1 };
    case 'quarter':
      return { year: date.year, month: date.month - ((date.month - 1) % 3), day: 1 };
    case 'year':
      return { year: date.year, month: 1, day: 1 };
  }
}

function addUnits(date: LocalDate, unit: Unit, count: number): LocalDate {
  switch (unit) {
    case 'day':
      return addDays(date, count);
    case 'week':
      return addDays(date, count * 7);
    case 'month':
      return addMonths(date, count);
    case 'quarter':
      return addMonths(date, count * 3);
    case 'year':
      return addMonths(date, count * 12);
  }
}

const RELATIVE =
  /^(?:(today|yesterday)|(this|last|next)\s+(day|week|month|quarter|year)|last\s+(\d+)\s+(day|week|month|quarter|year)s?)$/i;

/** What relative date ranges resolve against: a fixed day, or the local date of `now` in `timezone`. */
export interface DateReference {
  /** `YYYY-MM-DD`: "today" for relative ranges, whatever the time. Wins over `now`. */
  referenceDay?: string;
  now: number;
  timezone: string;
}

function parseDay(text: string): LocalDate {
  const [year, month, day] = text.split('-').map(Number);
  return { year: year!, month: month!, day: day! };
}

/**
 * Resolves a date range to inclusive local bounds `[from, to]` as `YYYY-MM-DDTHH:mm:ss.SSS`.
 * `reference` anchors relative ranges.
 */
export function resolveDateRange(range: string | readonly string[], reference: DateReference): [string, string] {
  if (typeof range === 'string') {
    const match = RELATIVE.exec(range.trim());
    if (!match)
      throw new UserError(
        `Can't parse date range "${range}": use [from, to] or today, yesterday, this month, last month, last 6 months...`,
      );
    const current =
      reference.referenceDay === undefined
        ? today(reference.now, reference.timezone)
        : parseDay(reference.referenceDay);
    let from: LocalDate;
    let end: LocalDate;
    if (match[1]) {
      from = match[1].toLowerCase() === 'today' ? current : addDays(current, -1);
      end = addDays(from, 1);
    } else if (match[2]) {
      const unit = match[3]!.toLowerCase() as Unit;
      const shift = { this: 0, last: -1, next: 1 }[match[2].toLowerCase() as 'this' | 'last' | 'next'];
      from = addUnits(startOfUnit(current, unit), unit, shift);
      end = addUnits(from, unit, 1);
    } else {
      const unit = match[5]!.toLowerCase() as Unit;
      const count = Number(match[4]);
      if (!Number.isSafeInteger(count) || count > MAX_RELATIVE_UNITS) {
        throw new UserError(`Can't parse date range "${range}": at most ${MAX_RELATIVE_UNITS} ${unit}s back`);
      }
      end = startOfUnit(current, unit);
      from = addUnits(end, unit, -count);
      if (from.year < 1) throw new UserError(`Can't parse date range "${range}": it starts before year 1`);
    }
    return [`${dateText(from)}T00:00:00.000`, `${dateText(addDays(end, -1))}T23:59:59.999`];
  }
  const [from, to] = range;
  if (from === undefined || to === undefined) throw new UserError('dateRange must be [from, to]');
  return [dateBound(from, 'start'), dateBound(to, 'end')];
}

function dateBound(text: string, side: 'start' | 'end'): string {
  if (DATE_ONLY.test(text)) return `${text}T${side === 'start' ? '00:00:00.000' : '23:59:59.999'}`;
  const match = DATE_TIME.exec(text);
  if (!match) throw new UserError(`"${text}" is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss`);
  const [, date, hours, minutes, seconds = '00', fraction = ''] = match;
  // An offset or `Z` is dropped: bounds are local times of the query's time zone, as the service reads them.
  return `${date}T${hours}:${minutes}:${seconds}.${fraction.padEnd(3, '0').slice(0, 3)}`;
}

// ---------------------------------------------------------------------------------------------
// Compiling
// ---------------------------------------------------------------------------------------------

/** A compiled query: SQL with `$n` parameters, and how to read its columns back. */
export interface CompiledLoad {
  sql: string;
  params: (string | number)[];
  /** Result column (in order) to the member keys it fills in each row. */
  columns: string[][];
  annotation: LoadAnnotation;
  /** The query as normalised, echoed as `query` in the answer. */
  query: LoadQuery & Record<string, unknown>;
}

interface Compiler {
  view: ViewModel | undefined;
  params: (string | number)[];
  reference: DateReference;
  timezone: string;
}

function member(compiler: Compiler, name: string, expected?: 'measure' | 'dimension' | 'time'): ResolvedMember {
  const resolved = resolveMember(name);
  if (!resolved) throw new UserError(`${name} not found: members are named view.member, for example orders.count`);
  if (compiler.view && compiler.view !== resolved.view) {
    throw new UserError(`Members of one query must belong to one view: ${name} is not in ${compiler.view.name}`);
  }
  compiler.view = resolved.view;
  if (expected === 'measure' && resolved.kind !== 'measure') throw new UserError(`${name} is not a measure`);
  if (expected === 'dimension' && resolved.kind !== 'dimension') throw new UserError(`${name} is not a dimension`);
  if (expected === 'time' && (resolved.kind !== 'dimension' || resolved.dimension.type !== 'time')) {
    throw new UserError(`${name} is not a time dimension`);
  }
  return resolved;
}

function param(compiler: Compiler, value: string | number): string {
  compiler.params.push(value);
  return `$${compiler.params.length}`;
}

function typedValue(
  compiler: Compiler,
  dimension: DimensionModel | undefined,
  value: string,
  memberName: string,
): string {
  if (dimension?.type === 'number' || dimension === undefined) {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number))
      throw new UserError(`${memberName}: ${JSON.stringify(value)} is not a number`);
    return param(compiler, number);
  }
  if (dimension.type === 'time') return `CAST(${param(compiler, dateBound(value, 'start'))} AS TIMESTAMP)`;
  if (dimension.type === 'boolean') return value === 'true' ? 'TRUE' : 'FALSE';
  return param(compiler, value);
}

function likePattern(value: string, operator: FilterOperator): string {
  const escaped = value.replace(/[\\%_]/g, (character) => `\\${character}`);
  if (operator === 'startsWith') return `${escaped}%`;
  if (operator === 'endsWith') return `%${escaped}`;
  return `%${escaped}%`;
}

function requireValues(
  filter: { member: string; operator: FilterOperator; values?: string[] },
  count?: number,
): string[] {
  const values = filter.values ?? [];
  if (values.length === 0) throw new UserError(`${filter.member}: operator ${filter.operator} needs values`);
  if (count !== undefined && values.length !== count)
    throw new UserError(`${filter.member}: operator ${filter.operator} takes ${count} value${count === 1 ? '' : 's'}`);
  return values;
}

function filterSql(compiler: Compiler, filter: Filter): { sql: string; measure: boolean } {
  if ('and' in filter || 'or' in filter) {
    const key = 'and' in filter ? 'and' : 'or';
    const parts = ('and' in filter ? filter.and : filter.or).map((item) => filterSql(compiler, item));
    if (parts.length === 0) return { sql: 'TRUE', measure: false };
    const kinds = new Set(parts.map((part) => part.measure));
    if (kinds.size > 1) throw new UserError(`An ${key} filter cannot mix measures and dimensions`);
    return {
      sql: `(${parts.map((part) => part.sql).join(key === 'and' ? ' AND ' : ' OR ')})`,
      measure: parts[0]!.measure,
    };
  }
  const resolved = member(compiler, filter.member);
  const isMeasure = resolved.kind === 'measure';
  const column = isMeasure ? measureSql(resolved.measure) : quoteIdent(resolved.dimension.name);
  const dimension = isMeasure ? undefined : resolved.dimension;
  const textual = dimension?.type === 'string';
  const values = (count?: number) => requireValues(filter, count);
  const typed = (value: string) => typedValue(compiler, dimension, value, filter.member);
  let sql: string;
  switch (filter.operator) {
    case 'equals':
      sql = `${column} IN (${values().map(typed).join(', ')})`;
      break;
    case 'notEquals':
      sql = `(${column} NOT IN (${values().map(typed).join(', ')}) OR ${column} IS NULL)`;
      break;
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      if (!textual) throw new UserError(`${filter.member}: operator ${filter.operator} needs a string dimension`);
      sql = `(${values()
        .map((value) => `${column} ILIKE ${param(compiler, likePattern(value, filter.operator))} ESCAPE '\\'`)
        .join(' OR ')})`;
      break;
    case 'notContains':
    case 'notStartsWith':
    case 'notEndsWith': {
      if (!textual) throw new UserError(`${filter.member}: operator ${filter.operator} needs a string dimension`);
      const positive = ({ notContains: 'contains', notStartsWith: 'startsWith', notEndsWith: 'endsWith' } as const)[
        filter.operator
      ];
      // NULL neither contains nor starts with anything: the negated operators keep it, as the service does.
      sql = `((${values()
        .map((value) => `${column} NOT ILIKE ${param(compiler, likePattern(value, positive))} ESCAPE '\\'`)
        .join(' AND ')}) OR ${column} IS NULL)`;
      break;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const symbol = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[filter.operator];
      if (textual) throw new UserError(`${filter.member}: operator ${filter.operator} needs a number or time member`);
      sql = `${column} ${symbol} ${typed(values(1)[0]!)}`;
      break;
    }
    case 'set':
      sql = `${column} IS NOT NULL`;
      break;
    case 'notSet':
      sql = `${column} IS NULL`;
      break;
    case 'inDateRange':
    case 'notInDateRange': {
      if (dimension?.type !== 'time')
        throw new UserError(`${filter.member}: operator ${filter.operator} needs a time dimension`);
      const [from, to] = resolveDateRange(values(2), compiler.reference);
      const inside = `${column} BETWEEN CAST(${param(compiler, from)} AS TIMESTAMP) AND CAST(${param(compiler, to)} AS TIMESTAMP)`;
      sql = filter.operator === 'inDateRange' ? inside : `(NOT (${inside}) OR ${column} IS NULL)`;
      break;
    }
    case 'beforeDate':
    case 'afterDate':
    case 'beforeOrOnDate':
    case 'afterOrOnDate': {
      if (dimension?.type !== 'time')
        throw new UserError(`${filter.member}: operator ${filter.operator} needs a time dimension`);
      // A date-only value is its whole day: "before" and "on or after" meet at its start,
      // "on or before" and "after" at its end, so each pair splits the rows in two.
      const side = filter.operator === 'beforeOrOnDate' || filter.operator === 'afterDate' ? 'end' : 'start';
      const bound = dateBound(values(1)[0]!, side);
      const symbol = ({ beforeDate: '<', afterDate: '>', beforeOrOnDate: '<=', afterOrOnDate: '>=' } as const)[
        filter.operator
      ];
      sql = `${column} ${symbol} CAST(${param(compiler, bound)} AS TIMESTAMP)`;
      break;
    }
  }
  return { sql, measure: isMeasure };
}

function annotationOf(resolved: ResolvedMember): MemberAnnotation {
  if (resolved.kind === 'measure') {
    return {
      title: `${resolved.view.title} ${resolved.measure.title}`,
      shortTitle: resolved.measure.shortTitle,
      type: 'number',
      ...(resolved.measure.format ? { format: resolved.measure.format } : {}),
    };
  }
  return {
    title: `${resolved.view.title} ${resolved.dimension.title}`,
    shortTitle: resolved.dimension.title,
    type: resolved.dimension.type,
  };
}

/**
 * Compiles a checked query to SQL over the view it names. Relative date ranges resolve against
 * `referenceDay` when given (the emulator passes the data's last day), else against `now` in the
 * query's time zone.
 */
export function compileLoadQuery(query: CheckedQuery, options: { now: number; referenceDay?: string }): CompiledLoad {
  const reference: DateReference = {
    now: options.now,
    timezone: query.timezone,
    ...(options.referenceDay === undefined ? {} : { referenceDay: options.referenceDay }),
  };
  const compiler: Compiler = { view: undefined, params: [], reference, timezone: query.timezone };
  const selects: string[] = [];
  const columns: string[][] = [];
  const annotation: LoadAnnotation = { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} };
  const where: string[] = [];
  const having: string[] = [];
  /** Member name (as `order` may name it) to the result column position (1-based). */
  const positions = new Map<string, number>();
  let groupedColumns = 0;
  let defaultOrder: [string, OrderDirection] | undefined;

  for (const name of query.dimensions) {
    const resolved = member(compiler, name, 'dimension');
    if (resolved.kind !== 'dimension') continue;
    selects.push(`${quoteIdent(resolved.dimension.name)} AS ${quoteIdent(name)}`);
    columns.push([name]);
    positions.set(name, selects.length);
    groupedColumns += 1;
    annotation.dimensions[name] = annotationOf(resolved);
  }
  for (const timeDimension of query.timeDimensions) {
    const resolved = member(compiler, timeDimension.dimension, 'time');
    if (resolved.kind !== 'dimension') continue;
    const column = quoteIdent(resolved.dimension.name);
    if (timeDimension.dateRange !== undefined) {
      const [from, to] = resolveDateRange(timeDimension.dateRange, compiler.reference);
      where.push(
        `${column} BETWEEN CAST(${param(compiler, from)} AS TIMESTAMP) AND CAST(${param(compiler, to)} AS TIMESTAMP)`,
      );
    }
    const granularity = timeDimension.granularity as Granularity | undefined;
    if (granularity === undefined) continue;
    const key = `${timeDimension.dimension}.${granularity}`;
    selects.push(`date_trunc(${sqlString(granularity)}, ${column}) AS ${quoteIdent(key)}`);
    columns.push(positions.has(timeDimension.dimension) ? [key] : [key, timeDimension.dimension]);
    positions.set(key, selects.length);
    if (!positions.has(timeDimension.dimension)) positions.set(timeDimension.dimension, selects.length);
    groupedColumns += 1;
    const base = annotationOf(resolved);
    annotation.timeDimensions[key] = {
      ...base,
      granularity: { name: granularity, title: granularity, interval: `1 ${granularity}` },
    };
    annotation.timeDimensions[timeDimension.dimension] = base;
    defaultOrder ??= [key, 'asc'];
  }
  for (const name of query.measures) {
    const resolved = member(compiler, name, 'measure');
    if (resolved.kind !== 'measure') continue;
    selects.push(`${measureSql(resolved.measure)} AS ${quoteIdent(name)}`);
    columns.push([name]);
    positions.set(name, selects.length);
    annotation.measures[name] = annotationOf(resolved);
    defaultOrder ??= [name, 'desc'];
  }
  for (const filter of query.filters) {
    const { sql, measure } = filterSql(compiler, filter);
    (measure ? having : where).push(sql);
  }
  if (defaultOrder === undefined && query.dimensions[0] !== undefined) defaultOrder = [query.dimensions[0], 'asc'];

  const order = query.order ?? (defaultOrder ? [defaultOrder] : []);
  const orderSql = order.map(([name, direction]) => {
    const position = positions.get(name);
    if (position === undefined) throw new UserError(`Can't order by ${name}: it is not a member of the query`);
    return `${position} ${direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
  });
  // DuckDB orders ties arbitrarily (it sorts in parallel): every grouped column breaks them, so the
  // same query answers the same rows in the same order, and LIMIT/OFFSET pages never overlap.
  const ordered = new Set(order.map(([name]) => positions.get(name)));
  for (let position = 1; position <= groupedColumns; position += 1) {
    if (!ordered.has(position)) orderSql.push(`${position} ASC NULLS LAST`);
  }

  const view = compiler.view;
  if (!view) throw new UserError('Query names no member');
  if (selects.length === 0)
    throw new UserError(
      'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid',
    );
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const offset = query.offset ?? 0;
  const groupBy =
    groupedColumns > 0 ? ` GROUP BY ${Array.from({ length: groupedColumns }, (_, index) => index + 1).join(', ')}` : '';
  const sql = [
    `SELECT ${selects.join(', ')} FROM ${quoteIdent(view.name)}`,
    where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '',
    groupBy,
    having.length > 0 ? ` HAVING ${having.join(' AND ')}` : '',
    orderSql.length > 0 ? ` ORDER BY ${orderSql.join(', ')}` : '',
    ` LIMIT ${limit} OFFSET ${offset}`,
  ].join('');

  const normalized: LoadQuery & Record<string, unknown> = {
    measures: query.measures,
    dimensions: query.dimensions,
    segments: query.segments,
    timeDimensions: query.timeDimensions,
    filters: query.filters,
    order,
    limit,
    ...(query.offset === undefined ? {} : { offset: query.offset }),
    timezone: query.timezone,
    queryType: 'regularQuery',
  };
  return { sql, params: compiler.params, columns, annotation, query: normalized };
}

/**
 * Runs a compiled query on a connection scoped to the caller. A result of more than `maxRows`
 * rows or `maxBytes` bytes of values (their text, UTF-8) is a {@link UserError}; the engine reads
 * at most one row past `maxRows`.
 */
export async function runLoadQuery(
  engine: DataEngine,
  compiled: CompiledLoad,
  scope: QueryScope,
  limits: { maxRows?: number; maxBytes?: number } = {},
): Promise<LoadResponse> {
  const { maxRows = MAX_QUERY_ROWS, maxBytes = MAX_QUERY_BYTES } = limits;
  const scoped = await engine.connect(scope);
  try {
    const result = await scoped.connection.run(
      `SELECT * FROM (${compiled.sql}) AS result LIMIT ${maxRows + 1}`,
      compiled.params,
    );
    if (result.rowCount > maxRows) throw new UserError(resultTooLarge(`${maxRows} rows`, 'maxQueryRows'));
    const formatters = result.columnTypes().map(cellFormatter);
    const rows = await result.getRows();
    let bytes = 0;
    const data = rows.map((row) => {
      const record: Record<string, string | null> = {};
      row.forEach((value, index) => {
        const text = formatters[index]!(value);
        if (text !== null) bytes += Buffer.byteLength(text);
        for (const key of compiled.columns[index] ?? []) record[key] = text;
      });
      return record;
    });
    if (bytes > maxBytes) throw new UserError(resultTooLarge(`${maxBytes} bytes of values`, 'maxQueryBytes'));
    return { query: compiled.query, data, annotation: compiled.annotation, lastRefreshTime: engine.lastRefreshTime() };
  } finally {
    scoped.close();
  }
}
