/**
 * A data query's result as the result views read it: columns in order, each with what the
 * annotation says of it (title, type, format, granularity), and rows as arrays of cells. One shape
 * for JSON and SQL results, so a table, a chart and a card format both alike.
 *
 * @module
 */
import type { DataQueryResult, SqlQueryResult } from './data-query';
import type { FormatColumn, TemporalGranularity } from './format-value';
import type { MemberAnnotation } from './protocol/data';
import { isRecord } from './protocol/shared';

/** A result as the views read it. */
export interface ResultView {
  /** The columns, in the order of each row's cells: member names (JSON) or column names (SQL). */
  columns: FormatColumn[];
  /** The rows, one cell per column, as the data API sent them. */
  rows: unknown[][];
}

/** The data API's member types, as the `column_type` the views read. */
const TYPES: Readonly<Record<string, string>> = {
  number: 'number',
  time: 'timestamp',
  string: 'string',
  boolean: 'boolean',
};

/** A granularity of the data API, as much of a date as its values carry. */
const GRANULARITIES: Readonly<Record<string, TemporalGranularity>> = {
  year: 'year',
  quarter: 'quarter',
  month: 'month',
  week: 'day',
  day: 'day',
  hour: 'minute',
  minute: 'minute',
  second: 'second',
};

/** A column of a JSON result from its member's annotation. */
function memberColumn(name: string, annotation: MemberAnnotation | undefined): FormatColumn {
  const column: FormatColumn = { name };
  if (!annotation) return column;
  const title = [annotation.shortTitle, annotation.title].find((text) => typeof text === 'string' && text.trim());
  if (title) column.title = title;
  if (typeof annotation.type === 'string' && Object.hasOwn(TYPES, annotation.type))
    column.type = TYPES[annotation.type];
  if (typeof annotation['format'] === 'string') column.format = annotation['format'];
  const granularity = annotation['granularity'];
  const unit = isRecord(granularity) ? granularity['name'] : undefined;
  if (typeof unit === 'string' && Object.hasOwn(GRANULARITIES, unit)) column.granularity = GRANULARITIES[unit];
  return column;
}

/** True for a JSON result (rows keyed by member), as opposed to a SQL one. */
export function isDataQueryResult(result: DataQueryResult | SqlQueryResult): result is DataQueryResult {
  return !('schema' in result.annotation);
}

/**
 * The columns and rows of a data query's result. A JSON result's columns come from its
 * annotation: time dimensions (by granularity; a bare time dimension only when it has none),
 * then dimensions, then measures, each titled by its short title, typed, and formatted as the
 * annotation says. A SQL result's are its schema.
 */
export function toResultView(result: DataQueryResult | SqlQueryResult): ResultView {
  if (!isDataQueryResult(result)) {
    return {
      columns: result.annotation.schema.map((column) => ({ name: column.name, type: column.column_type })),
      rows: result.data,
    };
  }
  const { annotation, data } = result;
  const times = Object.keys(annotation.timeDimensions ?? {});
  const names = [
    ...times.filter((name) => !times.some((other) => other.startsWith(`${name}.`))),
    ...Object.keys(annotation.dimensions ?? {}),
    ...Object.keys(annotation.measures ?? {}),
  ];
  // An answer without an annotation still has its rows' keys.
  if (names.length === 0 && data[0]) names.push(...Object.keys(data[0]));
  const columns = names.map((name) =>
    memberColumn(
      name,
      annotation.timeDimensions?.[name] ?? annotation.dimensions?.[name] ?? annotation.measures?.[name],
    ),
  );
  return { columns, rows: data.map((row) => names.map((name) => row[name] ?? null)) };
}
