/**
 * SQL result data, framework-free: what kind of value each `column_type` holds, the rows of a
 * result turned into typed records for a chart (numbers, dates, booleans), checked against the
 * schema, and CSV text that is safe to open in a spreadsheet.
 *
 * The data API and the `serviceSqlApi` tool send every cell as a string (numbers too) and SQL
 * `NULL` as `null` (2.8, behaviour 3); timestamps look like `2024-01-02T03:04:05.000`, the local
 * time of the query's time zone without an offset.
 *
 * @module
 */
import { ServiceValidationError } from './errors';

/** How a column's values are read: `column_type` sorted into four kinds. */
export type ColumnKind = 'number' | 'temporal' | 'boolean' | 'string';

/** A column as the result views see it: a name and, when the service sent it, its `column_type`. */
export interface ResultColumn {
  /** Column name. */
  name: string;
  /** SQL type (`column_type`); decides number alignment and formatting. */
  type?: string;
}

const NUMBER_TYPE =
  /^(?:u?int(?:8|16|32|64|128|256)?|u?(?:tiny|small|big|huge)int|integer|double|float(?:32|64)?|real|decimal|numeric|number)\b/i;
const TEMPORAL_TYPE = /^(?:timestamp|datetime|date)/i;
const BOOLEAN_TYPE = /^bool(?:ean)?$/i;

/**
 * The kind of a `column_type`: `Int*`, `UInt*`, `Double`, `Float`, `Decimal(p,s)`, `Number` are
 * numbers; `Timestamp*`, `Date*` are temporal; `Boolean` is boolean; anything else (and no type at
 * all) is a string, so an unknown type is shown as the text the service sent.
 */
export function columnKind(type: string | undefined): ColumnKind {
  if (type === undefined) return 'string';
  const name = type.trim();
  if (NUMBER_TYPE.test(name)) return 'number';
  if (TEMPORAL_TYPE.test(name)) return 'temporal';
  if (BOOLEAN_TYPE.test(name)) return 'boolean';
  return 'string';
}

/** A plain decimal number as text: what a number cell of the data API looks like. */
const NUMBER_TEXT = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
/** `YYYY-MM-DD`, optionally followed by a time and an offset. */
const DATE_TEXT = /^(\d{4,}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A cell that does not fit its column's type; thrown by {@link toChartRecords}. */
export class ResultDataError extends ServiceValidationError {
  static override readonly errorName: string = 'ResultDataError';
  /** Row index (0-based) of the first bad cell. */
  declare readonly row: number;
  /** Column name of the first bad cell, when the problem is a cell rather than the row's length. */
  declare readonly column: string | undefined;

  constructor(message: string, options: { row: number; column?: string }) {
    super([message], { message });
    this.row = options.row;
    this.column = options.column;
  }
}

/** A number cell as a number; `undefined` when the text is not a number. */
export function parseNumberCell(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (NUMBER_TEXT.test(text)) return Number(text);
  // DuckDB and the service print special doubles this way.
  if (/^[-+]?(?:inf(?:inity)?)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return Number.NaN;
  return undefined;
}

/**
 * A temporal cell as a `Date`; `undefined` when the text is not a date. Text without an offset is
 * the local time of the query's time zone, so it becomes the same wall-clock time here (a chart's
 * axis then shows the month the service meant, whatever the viewer's zone). A date alone is
 * midnight of that day, not UTC midnight as `Date.parse` would read it.
 */
export function parseTemporalCell(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const match = DATE_TEXT.exec(value.trim());
  if (!match) return undefined;
  const [, day, time = '00:00:00', offset = ''] = match;
  const normalOffset = offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset;
  const date = new Date(`${day}T${time}${normalOffset}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A boolean cell as a boolean; `undefined` when the text is not one. */
export function parseBooleanCell(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === 't' || text === '1') return true;
  if (text === 'false' || text === 'f' || text === '0') return false;
  return undefined;
}

/** A value a chart record holds. */
export type ChartValue = number | Date | boolean | string | null;

/**
 * The rows of a result as records keyed by column name, each value converted by its column's
 * kind: numbers, `Date`s, booleans, strings; `null` stays `null`. What a Vega-Lite chart reads.
 *
 * @throws ResultDataError when the data does not match the schema: a row that is not an array or
 *   has another number of cells, or a cell its column's type cannot read (`"abc"` in an `Int64`
 *   column). A chart must not draw data it misreads.
 */
export function toChartRecords(
  columns: readonly ResultColumn[],
  rows: readonly unknown[],
): Record<string, ChartValue>[] {
  const kinds = columns.map((column) => columnKind(column.type));
  const records: Record<string, ChartValue>[] = [];
  rows.forEach((row, rowIndex) => {
    if (!Array.isArray(row)) throw new ResultDataError(`Row ${rowIndex + 1} is not a list of cells`, { row: rowIndex });
    if (row.length !== columns.length) {
      throw new ResultDataError(
        `Row ${rowIndex + 1} has ${row.length} cells but the schema has ${columns.length} columns`,
        { row: rowIndex },
      );
    }
    // A null prototype: a column named `__proto__` must stay a field.
    const record = Object.create(null) as Record<string, ChartValue>;
    columns.forEach((column, index) => {
      const cell: unknown = row[index];
      const kind = kinds[index]!;
      let value: ChartValue | undefined;
      if (cell === null || cell === undefined) value = null;
      else if (kind === 'number') value = parseNumberCell(cell);
      else if (kind === 'temporal') value = parseTemporalCell(cell);
      else if (kind === 'boolean') value = parseBooleanCell(cell);
      else value = cellText(cell);
      if (value === undefined) {
        throw new ResultDataError(
          `Row ${rowIndex + 1}, column "${column.name}": ${JSON.stringify(cell)?.slice(0, 80)} is not a ${kind} (column type ${column.type ?? 'unknown'})`,
          { row: rowIndex, column: column.name },
        );
      }
      record[column.name] = value;
    });
    records.push(record);
  });
  return records;
}

// ---------------------------------------------------------------------------------------------
// Text of a cell (table and CSV)

/** The text of a cell as the service sent it: strings as they are, `null` as `''`, other JSON as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // Nested past the stack (or cyclic): still a cell, never a crash of the table.
    return Array.isArray(value) ? '[…]' : '{…}';
  }
}

// ---------------------------------------------------------------------------------------------
// CSV

/**
 * Characters that make a spreadsheet read a cell as a formula (or, for tab and carriage return,
 * that some spreadsheets strip before doing so): OWASP's CSV injection list.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: formula-safe, then quoted when needed (RFC 4180).
 *
 * A cell that a spreadsheet would run as a formula (`=HYPERLINK(...)`, `+1+cmd|...`, `@SUM(...)`,
 * `-2+3`) gets a leading `'`, which spreadsheets show as text; a plain number such as `-12.5` is
 * left alone, since no spreadsheet runs it and a prefix would turn it into text.
 */
export function csvField(value: unknown): string {
  let text = cellText(value);
  if (FORMULA_START.test(text) && !NUMBER_TEXT.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The result as CSV text (RFC 4180: comma-separated, `CRLF` line ends, fields with commas, quotes
 * or line breaks quoted, quotes doubled), a header row of column names first. Cells are written
 * as the service sent them (numbers keep all their digits); `null` is an empty field. Formula
 * injection is neutralized by {@link csvField}. No byte order mark: add one when you write a file
 * for Excel (`toCsvBlob` does).
 */
export function toCsv(columns: readonly ResultColumn[], rows: readonly (readonly unknown[])[]): string {
  const lines = [columns.map((column) => csvField(column.name)).join(',')];
  for (const row of rows) lines.push(columns.map((_, index) => csvField(row[index])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The CSV of {@link toCsv} as a UTF-8 file with a byte order mark, so Excel reads accents right. */
export function toCsvBlob(columns: readonly ResultColumn[], rows: readonly (readonly unknown[])[]): Blob {
  return new Blob(['\uFEFF', toCsv(columns, rows)], { type: 'text/csv;charset=utf-8' });
}

/**
 * The result as tab-separated values, as spreadsheets paste them: a header row of column names,
 * one line per row, tabs and line breaks inside a cell turned into spaces, formulas neutralized as
 * in {@link csvField}.
 */
export function toTsv(columns: readonly ResultColumn[], rows: readonly (readonly unknown[])[]): string {
  const field = (value: unknown) => {
    const text = cellText(value).replace(/[\t\r\n]+/g, ' ');
    return FORMULA_START.test(text) && !NUMBER_TEXT.test(text) ? `'${text}` : text;
  };
  const lines = [columns.map((column) => field(column.name)).join('\t')];
  for (const row of rows) lines.push(columns.map((_, index) => field(row[index])).join('\t'));
  return `${lines.join('\n')}\n`;
}

/** A file name for a CSV download from a query title: letters, digits, dashes; `query.csv` when nothing is left. */
export function csvFileName(title: string | undefined): string {
  const base = (title ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'query'}.csv`;
}
