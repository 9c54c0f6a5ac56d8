import { keepPreviousData, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import { forwardRef, useMemo, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import {
  DEFAULT_DATA_PAGE_SIZE,
  dataInfiniteQueryOptions,
  type DataQuery,
  type DataQueryResult,
  type SqlQueryResult,
} from '../../core/data-query';
import { toResultView, type ResultView } from '../../core/data-result';
import type { ServiceError } from '../../core/errors';
import { columnKind } from '../../core/result-data';
import { ResultTable, type ResultTableSort } from '../results/ResultTable';
import type { ColumnFormats } from '../results/column-hints';
import type { SqlToolLabels } from '../results/labels';
import { QueryError } from './query-error';
import { DEFAULT_DATA_VIEW_LABELS, type DataViewLabels } from './labels';
import { sortRows } from './sort-rows';
import { useViewSource, viewQueryOptions, type DataViewSource, type ViewQuery } from './use-result-query';
import { named } from '../part';

/** Rows a `QueryTable` shows at first and adds with each "Load more", by default. */
export const DEFAULT_QUERY_TABLE_PAGE_SIZE = DEFAULT_DATA_PAGE_SIZE;

/** Props of {@link QueryTable}; other props go to its root `<div>`. */
export interface QueryTableProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children' | 'title'>, DataViewSource {
  /** The query: a JSON query (`/v1/load`), or SQL (`/v1/cubesql`, measures as `MEASURE(view.measure)`). */
  query: ViewQuery;
  /** The query's title, for the table's accessible name. */
  title?: string;
  /**
   * Rows shown at first and added by each "Load more". A JSON query is read from the data API a
   * page at a time (within its own `limit`); SQL arrives whole and is shown a page at a time.
   * Default {@link DEFAULT_QUERY_TABLE_PAGE_SIZE} (100).
   */
  pageSize?: number;
  /** The sort, controlled: the column (by name) and direction. `null`: the query's own order. */
  sort?: ResultTableSort | null;
  /** The sort at first, uncontrolled. Default `null`: the query's own order. */
  defaultSort?: ResultTableSort | null;
  /** Called with the sort a header asks for (a new column: numbers descending, others ascending; the same: reversed). */
  onSortChange?: (sort: ResultTableSort) => void;
  /**
   * Headers are buttons that sort by their column. Default `true`. A JSON query is sorted by the
   * data API (its `order`), so every page follows the sort; SQL is sorted here, whole.
   */
  sortable?: boolean;
  /** What to show of columns beyond the annotation (title, currency, decimals), by name; see `ResultTable`. */
  columnFormats?: ColumnFormats;
  /** Locale of numbers, dates and counts, a BCP-47 tag. Default: the browser's. */
  locale?: string;
  /** UI strings of this view over the English defaults; see `DataViewLabels`. */
  labels?: Partial<DataViewLabels>;
  /** UI strings of the table itself (row counts, accessible name); see `SqlToolLabels`. */
  resultLabels?: Partial<SqlToolLabels>;
}

/** `query` in the order of `sort`: a time column (`view.time.month`) is ordered by its dimension. */
function sortedQuery(query: DataQuery, sort: ResultTableSort | null): DataQuery {
  if (!sort) return query;
  const time = query.timeDimensions?.find(
    (dimension) =>
      dimension.granularity !== undefined && `${dimension.dimension}.${dimension.granularity}` === sort.column,
  );
  return { ...query, order: { [time?.dimension ?? sort.column]: sort.direction } };
}

/** The pages of a JSON query as one view: the first page's columns, every page's rows. */
function pagesView(data: InfiniteData<DataQueryResult, number>): InfiniteData<ResultView, number> {
  return { pageParams: data.pageParams, pages: data.pages.map(toResultView) };
}

/** The loading state: a status for screen readers and five skeleton rows. */
function TableSkeleton({ label }: { label: string }): ReactNode {
  return (
    <>
      <p className="service-visually-hidden" role="status">
        {label}
      </p>
      <div className="service-result-skeleton" data-part="result-skeleton" aria-hidden="true">
        {[0, 1, 2, 3, 4].map((row) => (
          <span key={row} className="service-result-skeleton__row" />
        ))}
      </div>
    </>
  );
}

/** Under the rows: a failed page's message and retry, or "load more" while there is more. */
function TableFooter(props: {
  failed: string | undefined;
  more: boolean;
  loadingMore: boolean;
  labels: DataViewLabels;
  onRetry: () => void;
  onLoadMore: () => void;
}): ReactNode {
  const { failed, more, loadingMore, labels, onRetry, onLoadMore } = props;
  if (failed !== undefined)
    return (
      <span className="service-result-load-all" data-state="error">
        <span role="alert">{failed}</span>
        <button type="button" className="service-result-button" onClick={onRetry}>
          {labels.retry}
        </button>
      </span>
    );
  if (!more) return null;
  return (
    <button
      type="button"
      className="service-result-button"
      data-part="load-more"
      data-state={loadingMore ? 'loading' : 'idle'}
      disabled={loadingMore}
      onClick={onLoadMore}
    >
      {loadingMore ? labels.loadingMore : labels.loadMore}
    </button>
  );
}

/**
 * The result table of a query (`data-part="query-table"`): `ResultTable`, the chat's table, with
 * its formatting (titles and formats from the annotation, numbers and dates in the locale), headers
 * that sort by their column (`aria-sort`), and "Load more" (`data-part="load-more"`) for long
 * results: a JSON query reads the next page from the data API, SQL shows more of its rows.
 *
 * `data-state` is `loading` (a skeleton; what a server renders without a prefetch), `error` (the
 * query failed, with a retry button) or `ready`; `aria-busy` while another sort or page loads.
 * The query runs through TanStack Query: `dataInfiniteQueryOptions` (JSON) or `sqlQueryOptions`
 * (SQL), so a server's `prefetchInfiniteQuery` / `prefetchQuery` of the same options hydrates it.
 */
export const QueryTable = /*#__PURE__*/ named(
  /*#__PURE__*/ forwardRef<HTMLDivElement, QueryTableProps>(function QueryTable(props, ref) {
    const {
      query,
      title,
      pageSize: givenPageSize,
      sort: controlledSort,
      defaultSort = null,
      onSortChange,
      sortable = true,
      columnFormats,
      locale,
      labels: givenLabels,
      resultLabels,
      settings: givenSettings,
      queryClient: givenClient,
      className,
      ...rest
    } = props;
    const labels = useMemo(() => ({ ...DEFAULT_DATA_VIEW_LABELS, ...givenLabels }), [givenLabels]);
    const pageSize = givenPageSize ?? DEFAULT_QUERY_TABLE_PAGE_SIZE;
    const { settings, client } = useViewSource({ settings: givenSettings, queryClient: givenClient });
    const [ownSort, setOwnSort] = useState<ResultTableSort | null>(defaultSort);
    const sort = controlledSort !== undefined ? controlledSort : ownSort;
    const sql = typeof query === 'string' ? query : undefined;
    const json = typeof query === 'string' ? undefined : query;

    const pages = useInfiniteQuery(
      {
        ...dataInfiniteQueryOptions(sortedQuery(json ?? {}, sort), settings, { pageSize }),
        select: pagesView,
        enabled: json !== undefined,
        placeholderData: keepPreviousData,
      },
      client,
    );
    const whole = useQuery<DataQueryResult | SqlQueryResult, ServiceError, ResultView>(
      { ...viewQueryOptions(sql ?? '', settings), select: toResultView, enabled: sql !== undefined },
      client,
    );
    const [shown, setShown] = useState(pageSize);

    const active = json !== undefined ? pages : whole;
    // Both queries fail with the library's typed errors (the query options' queryFn throws no other).
    const error = active.error as ServiceError | null;
    const view = useMemo((): (ResultView & { total: number; more: boolean }) | undefined => {
      if (json !== undefined) {
        const data = pages.data;
        if (!data || data.pages.length === 0) return undefined;
        const rows = data.pages.flatMap((page) => page.rows);
        return { columns: data.pages[0]!.columns, rows, total: rows.length, more: pages.hasNextPage };
      }
      if (!whole.data) return undefined;
      const sorted = sortRows(whole.data.columns, whole.data.rows, sort, locale);
      return {
        columns: whole.data.columns,
        rows: sorted.slice(0, shown) as unknown[][],
        total: sorted.length,
        more: shown < sorted.length,
      };
    }, [json, pages.data, pages.hasNextPage, whole.data, sort, locale, shown]);

    const changeSort = (column: string) => {
      const kind = columnKind(view?.columns.find((candidate) => candidate.name === column)?.type);
      const next: ResultTableSort =
        sort?.column === column
          ? { column, direction: sort.direction === 'asc' ? 'desc' : 'asc' }
          : { column, direction: kind === 'number' ? 'desc' : 'asc' };
      if (controlledSort === undefined) setOwnSort(next);
      onSortChange?.(next);
    };

    const loadingMore = pages.isFetchingNextPage;
    // A failed page after others loaded (or another sort, shown over the last one): retried in place.
    const pageFailed = json !== undefined && pages.isError && pages.data !== undefined;
    const retryPage = () => void (pages.isFetchNextPageError ? pages.fetchNextPage() : pages.refetch());
    const loadMore = () => {
      if (json !== undefined) void pages.fetchNextPage();
      else setShown((count) => count + pageSize);
    };
    const numbers = useMemo(() => new Intl.NumberFormat(locale), [locale]);
    const format = (value: number) => numbers.format(value);

    const state = view ? 'ready' : error ? 'error' : 'loading';
    let body: ReactNode;
    if (!view && error) {
      body = <QueryError error={error} labels={labels} onRetry={() => void active.refetch()} />;
    } else if (!view) {
      body = <TableSkeleton label={labels.loading} />;
    } else {
      // Pages of a JSON query: how many are loaded, not a total the data API never said.
      const tableLabels =
        json !== undefined && view.more
          ? { ...resultLabels, allRows: () => labels.loadedRows(view.total, format) }
          : resultLabels;
      body = (
        <ResultTable
          table={{ columns: view.columns, rows: view.rows, totalRows: view.total }}
          title={title}
          labels={tableLabels}
          locale={locale}
          columnFormats={columnFormats}
          maxRows={view.rows.length}
          sort={sortable ? sort : undefined}
          onSort={sortable ? changeSort : undefined}
        >
          <TableFooter
            failed={pageFailed ? (error?.message ?? '') : undefined}
            more={view.more}
            loadingMore={loadingMore}
            labels={labels}
            onRetry={retryPage}
            onLoadMore={loadMore}
          />
        </ResultTable>
      );
    }

    return (
      <div
        {...rest}
        ref={ref}
        className={className ? `service-query-table ${className}` : 'service-query-table'}
        data-part="query-table"
        data-state={state}
        aria-busy={state === 'loading' || active.isFetching || undefined}
      >
        {body}
      </div>
    );
  }),
  'QueryTable',
);
