/**
 * Sorting a whole result's rows in the browser (a SQL result, which the data API cannot page in
 * another order): by the column's kind, so numbers compare as numbers and dates as dates, text in
 * the locale's order with numbers in it read as numbers, `NULL` last either way.
 *
 * @module
 */
import type { ResultTableSort } from '../results/ResultTable';
import { columnKind, parseBooleanCell, parseNumberCell, parseTemporalCell, cellText } from '../../core/result-data';
import type { FormatColumn } from '../../core/format-value';

/** A copy of `rows` sorted by `sort` (stable: equal rows keep their order); the same array without a sort. */
export function sortRows(
  columns: readonly FormatColumn[],
  rows: readonly unknown[][],
  sort: ResultTableSort | null | undefined,
  locale: string | undefined,
): readonly unknown[][] {
  const index = sort ? columns.findIndex((column) => column.name === sort.column) : -1;
  if (!sort || index === -1) return rows;
  const kind = columnKind(columns[index]!.type);
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const key = (cell: unknown): number | string | undefined => {
    if (cell === null || cell === undefined) return undefined;
    if (kind === 'number') return parseNumberCell(cell);
    if (kind === 'temporal') return parseTemporalCell(cell)?.getTime();
    if (kind === 'boolean') {
      const value = parseBooleanCell(cell);
      return value === undefined ? undefined : Number(value);
    }
    return cellText(cell);
  };
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, key: key(row[index]) }));
  keyed.sort((a, b) => {
    // Missing values last, whichever the direction.
    if (a.key === undefined || b.key === undefined) return a.key === b.key ? 0 : a.key === undefined ? 1 : -1;
    if (typeof a.key === 'string' || typeof b.key === 'string')
      return sign * collator.compare(String(a.key), String(b.key));
    return sign * (a.key - b.key || 0);
  });
  return keyed.map((entry) => entry.row);
}
