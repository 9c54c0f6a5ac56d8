import { useMemo, type ComponentPropsWithoutRef } from 'react';
import { columnTitle, describeColumn, formatValue, type FormatColumn } from '../../core/format-value';
import type { ResultTable as ResultTableData } from '../../core/protocol/tools';
import { columnKind } from '../../core/result-data';
import { createPart } from '../part';
import { useLabels, useViewSettings } from '../view-settings';
import { DEFAULT_SQL_TOOL_LABELS, type SqlToolLabels } from './labels';

/**
 * The table data a {@link ResultTable} renders (the core's `ResultTable`, from `toResultTable`).
 * The same name as the component, so that `@service/react`, which exports the component, still
 * exports the type its `export * from core` would otherwise lose.
 */
export type ResultTable = ResultTableData;

/** Rows a table renders at most, by default; the rest are in the CSV download. */
export const DEFAULT_MAX_TABLE_ROWS = 5000;

/** Props of {@link ResultTable}; other props go to its root `<div>`. */
export interface ResultTableProps extends ComponentPropsWithoutRef<'div'> {
  /**
   * Columns, rows and the total row count: `toResultTable(result)` of a `serviceSqlApi` result
   * (typed by `column_type`) or of the older row-object shape (untyped: shown as text).
   */
  table: ResultTableData;
  /** The query's title, for the table's accessible name (`labels.tableLabel`). */
  title?: string;
  /** UI strings over those of an enclosing `AgentChat` and the defaults; see `SqlToolLabels`. */
  labels?: Partial<SqlToolLabels>;
  /**
   * Rows rendered at most. Default `DEFAULT_MAX_TABLE_ROWS` (5,000): a "load all" of a
   * large result stays responsive; the footer says how many are shown.
   */
  maxRows?: number;
  /** Locale of numbers, dates and counts, a BCP-47 tag. Default: an enclosing `AgentChat`'s `locale`, else the browser's. */
  locale?: string;
  /**
   * What the data model says about columns, by column name: a human `title` (a member's title from
   * the metadata tool), a `format` (`currency`, `percent`), a `currency` code, fixed
   * `fractionDigits`, a temporal `granularity`. Default: titles from the names (`total_revenue` is
   * "Total revenue"), decimals and granularity from the values.
   */
  columnFormats?: Readonly<Record<string, Partial<Omit<FormatColumn, 'name' | 'type'>>>>;
  /**
   * The column the rows are sorted by, and which way (`QueryTable`'s sorting): its header says so
   * with `aria-sort`. The table shows the rows in the order given; sorting them is the caller's.
   */
  sort?: ResultTableSort | null;
  /**
   * Makes every header a button that asks to sort by its column (by name). Default none: headers
   * are plain text.
   */
  onSort?: (column: string) => void;
}

/** A table's sort: the column's name and the direction. */
export interface ResultTableSort {
  /** The column sorted by, by name. */
  column: string;
  /** Ascending or descending. */
  direction: 'asc' | 'desc';
}

/**
 * The rows of a SQL result as a table (`data-part="result-table"`) that reads like a product's:
 * headers as titles ("Total revenue", or the data model's own), numbers right-aligned in tabular
 * figures with one number of decimals per column (so they line up on the decimal point; every
 * digit of a 64-bit integer kept), currency where the column's format says so, dates in the
 * locale without ISO notation (a month column reads "Jan 2025"), SQL `NULL` marked, a header row
 * that stays in view while the body scrolls, and a footer that counts with the locale's plural
 * rules ("1 row", "Showing 100 of 1,234 rows"). Formatting is `formatValue` of
 * `@service/react`. The scrolling region is focusable, so keyboards can scroll it. Ref, `className`
 * and other props go to its root `<div>`; its `children` are actions for the footer, after the row
 * count ("load all" in `SqlToolView`).
 */
export const ResultTable = /*#__PURE__*/ createPart(
  'ResultTable',
  'div',
  'result-table',
  'service-result-table',
  function ResultTable(props: ResultTableProps) {
    const {
      table,
      title: givenTitle,
      labels: own,
      maxRows: givenMaxRows,
      locale: givenLocale,
      columnFormats,
      sort,
      onSort,
      children,
      ...rest
    } = props;
    const labels = useLabels(DEFAULT_SQL_TOOL_LABELS, own);
    const settings = useViewSettings();
    const locale = givenLocale ?? settings.locale;
    const maxRows = givenMaxRows ?? DEFAULT_MAX_TABLE_ROWS;
    const shown = useMemo(() => table.rows.slice(0, Math.max(0, maxRows)), [table.rows, maxRows]);
    const columns = useMemo(
      () =>
        table.columns.map((column, index) =>
          describeColumn(
            {
              ...column,
              ...(columnFormats && Object.hasOwn(columnFormats, column.name) ? columnFormats[column.name] : {}),
            },
            shown.map((row) => (Array.isArray(row) ? row[index] : undefined)),
          ),
        ),
      [table.columns, columnFormats, shown],
    );
    const kinds = useMemo(() => columns.map((column) => columnKind(column.type)), [columns]);
    const total = Math.max(table.totalRows, table.rows.length);
    const numbers = useMemo(() => new Intl.NumberFormat(locale), [locale]);
    const count = (value: number) => numbers.format(value);
    const title = givenTitle ?? labels.untitledQuery;
    return {
      rest,
      children: (
        <>
          <div
            className="service-result-table__scroll"
            role="region"
            aria-label={labels.tableLabel(title)}
            tabIndex={0}
          >
            <table>
              <thead>
                <tr>
                  {columns.map((column, index) => {
                    const direction = sort?.column === column.name ? sort.direction : undefined;
                    return (
                      <th
                        key={index}
                        scope="col"
                        data-kind={kinds[index]}
                        title={column.type ? `${column.name} (${column.type})` : column.name}
                        aria-sort={
                          direction ? (direction === 'asc' ? 'ascending' : 'descending') : onSort ? 'none' : undefined
                        }
                      >
                        {onSort ? (
                          <button
                            type="button"
                            className="service-result-table__sort"
                            data-state={direction ?? 'none'}
                            onClick={() => onSort(column.name)}
                          >
                            {columnTitle(column)}
                            <span className="service-result-table__sort-icon" aria-hidden="true" />
                          </button>
                        ) : (
                          columnTitle(column)
                        )}
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {shown.map((row, rowIndex) => (
                  <tr key={rowIndex}>
                    {columns.map((column, index) => {
                      const value: unknown = Array.isArray(row) ? row[index] : undefined;
                      return (
                        <td key={index} data-kind={kinds[index]}>
                          {value === null || value === undefined ? (
                            <span className="service-result-table__null">{labels.nullValue}</span>
                          ) : (
                            formatValue(value, column, locale)
                          )}
                        </td>
                      );
                    })}
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
                  ? labels.showingRows(shown.length, total, count)
                  : labels.allRows(total, count)}
            </span>
            {children}
          </div>
        </>
      ),
    };
  },
);
