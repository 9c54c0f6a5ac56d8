import { useMemo, type ReactNode } from 'react';
import type { ResultTable as ResultTableData } from '../../core/protocol/tools';
import { cellText, columnKind, parseNumberCell, type ColumnKind } from '../../core/result-data';
import { fill, resolveLabels, type SqlToolLabels } from './labels';

/**
 * The table data a {@link ResultTable} renders (the core's `ResultTable`, from `toResultTable`).
 * The same name as the component, so that `@service/react`, which exports the component, still
 * exports the type its `export * from core` would otherwise lose.
 */
export type ResultTable = ResultTableData;

/** Rows a table renders at most, by default; the rest are in the CSV download. */
export const DEFAULT_MAX_TABLE_ROWS = 5000;

/** Props of {@link ResultTable}. */
export interface ResultTableProps {
  /**
   * Columns, rows and the total row count: `toResultTable(result)` of a `serviceSqlApi` result
   * (typed by `column_type`) or of the older row-object shape (untyped: shown as text).
   */
  table: ResultTableData;
  /** The query's title, for the table's accessible name (`labels.tableLabel`). */
  title?: string;
  /** UI strings; see `SqlToolLabels`. */
  labels?: Partial<SqlToolLabels>;
  /**
   * Rows rendered at most. Default `DEFAULT_MAX_TABLE_ROWS` (5,000): a "load all" of a
   * large result stays responsive; the footer says how many are shown.
   */
  maxRows?: number;
  /** Locale of number formatting, a BCP-47 tag. Default: the browser's. */
  locale?: string;
  /** Class of the root element, next to the library's own. */
  className?: string;
  /** Actions for the footer, after the row count ("load all" in `SqlToolView`). */
  children?: ReactNode;
}

const TIMESTAMP_TEXT = /^(\d{4,}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/;

/** A timestamp as the data API sends it, shortened: the date alone at midnight, else date and time. */
function formatTemporal(text: string): string {
  const match = TIMESTAMP_TEXT.exec(text);
  if (!match) return text;
  const [, day, time, fraction = '', offset = ''] = match;
  if (time === '00:00:00' && /^0*$/.test(fraction) && (offset === '' || offset === 'Z')) return day!;
  const millis = /^0*$/.test(fraction) ? '' : `.${fraction}`;
  return `${day} ${time}${millis}${offset}`;
}

function Cell({ value, kind, format }: { value: unknown; kind: ColumnKind; format: Intl.NumberFormat }): ReactNode {
  if (value === null || value === undefined) return <span className="service-result-table__null">null</span>;
  const text = cellText(value);
  if (kind === 'number' && parseNumberCell(value) !== undefined) {
    // Formatting the decimal text (not a Number) keeps every digit of a 64-bit integer.
    return format.format(text.trim() as unknown as number);
  }
  if (kind === 'temporal') return formatTemporal(text);
  return text;
}

/**
 * The rows of a SQL result as a table (`data-part="result-table"`): a header row that stays in
 * view while the body scrolls, numbers right-aligned with grouping in the viewer's locale (every
 * digit kept), timestamps shortened, SQL `NULL` marked, and a footer that says how many rows are
 * shown ("Showing 100 of 1,234 rows"). The scrolling region is focusable, so keyboards can scroll it.
 */
export function ResultTable(props: ResultTableProps): ReactNode {
  const { table, className, children, locale } = props;
  const labels = resolveLabels(props.labels);
  const maxRows = props.maxRows ?? DEFAULT_MAX_TABLE_ROWS;
  const format = useMemo(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }), [locale]);
  const kinds = useMemo(() => table.columns.map((column) => columnKind(column.type)), [table.columns]);
  const shown = table.rows.slice(0, Math.max(0, maxRows));
  const total = Math.max(table.totalRows, table.rows.length);
  const count = (value: number) => format.format(value);
  const title = props.title ?? labels.untitledQuery;
  return (
    <div className={className ? `service-result-table ${className}` : 'service-result-table'} data-part="result-table">
      <div
        className="service-result-table__scroll"
        role="region"
        aria-label={fill(labels.tableLabel, { title })}
        tabIndex={0}
      >
        <table>
          <thead>
            <tr>
              {table.columns.map((column, index) => (
                <th key={index} scope="col" data-kind={kinds[index]} title={column.type}>
                  {column.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {table.columns.map((_, index) => (
                  <td key={index} data-kind={kinds[index]}>
                    <Cell value={Array.isArray(row) ? row[index] : undefined} kind={kinds[index]!} format={format} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="service-result-table__footer">
        <span className="service-result-table__count" data-part="row-count">
          {total === 0
            ? labels.noRows
            : shown.length < total
              ? fill(labels.showingRows, { shown: count(shown.length), total: count(total) })
              : fill(labels.allRows, { total: count(total) })}
        </span>
        {children}
      </div>
    </div>
  );
}
