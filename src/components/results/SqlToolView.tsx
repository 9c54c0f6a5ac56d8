import { useEffect, useMemo, useRef, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import {
  toResultTable,
  type ResultTable as ResultTableData,
  type ServiceMetaResult,
  type ServiceSqlApiInput,
} from '../../core/protocol/tools';
import { isRecord } from '../../core/protocol/shared';
import { csvFileName, toCsvBlob } from '../../core/result-data';
import type { ChatToolCall } from '../../core/thread-store';
import { columnTitlesFromMeta, formatsFromChartSpec, type ColumnFormats } from './column-hints';
import { ErrorCard } from './ErrorCard';
import { createPart } from '../part';
import { useFormatNumber, useLabels, useViewSettings } from '../view-settings';
import { DEFAULT_SQL_TOOL_LABELS, type FormatNumber, type SqlToolLabels } from './labels';
import { ResultChart } from './ResultChart';
import { ResultTable } from './ResultTable';
import { useSqlSegments } from './sql-highlight';
import { useLoadAll } from './use-load-all';

/** Props of {@link SqlToolView}; other props go to its root `<div>`. */
export interface SqlToolViewProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /**
   * A `serviceSqlApi` tool call as the thread store keeps it: `running` (input only) or `complete`
   * (with a `serviceSqlApi` result, or the older row-object shape, shown as a table). Tool errors
   * are the chat's to show; given one, this view shows an error card.
   */
  call: ChatToolCall;
  /** UI strings over those of an enclosing `AgentChat` and the English defaults; see {@link SqlToolLabels}. */
  labels?: Partial<SqlToolLabels>;
  /** What a result with a chart shows first. Default `'chart'` when the call has a `vegaSpec`, else the table. */
  defaultView?: 'table' | 'chart';
  /** Locale of the table's numbers, dates and counts, a BCP-47 tag. Default: an enclosing `AgentChat`'s `locale`, else the browser's. */
  locale?: string;
  /**
   * `serviceMeta` results of the same answer: the table's headers take their members' titles
   * (matched by name or through the SQL's `AS` aliases). Default none: titles from the names.
   */
  metadata?: readonly ServiceMetaResult[];
  /**
   * What the data model says about columns, by name (title, `currency`/`percent` format, decimals),
   * over what the view reads from the metadata and the chart spec (a field the spec formats with
   * `$` is currency). See `ResultTableProps.columnFormats`.
   */
  columnFormats?: ColumnFormats;
  /**
   * Which parts to show: `all` (default), `query` (the title, description and SQL, the SQL open)
   * or `result` (the running state, the error, or the table and chart with their toolbar). The
   * chat shows the query inside a collapsed tool step and the result below it, always in view.
   */
  parts?: 'all' | 'query' | 'result';
}

/** The text fields of a `serviceSqlApi` input or result, each kept only when it is a string. */
function textFields(
  value: unknown,
): Partial<Pick<ServiceSqlApiInput, 'sqlQuery' | 'queryTitle' | 'description' | 'vegaSpec'>> {
  if (!isRecord(value)) return {};
  const fields: Partial<Record<'sqlQuery' | 'queryTitle' | 'description' | 'vegaSpec', string>> = {};
  for (const key of ['sqlQuery', 'queryTitle', 'description', 'vegaSpec'] as const) {
    const field = value[key];
    if (typeof field === 'string' && field.trim() !== '') fields[key] = field;
  }
  return fields;
}

/** True when the chart spec's own title is `title` (the view's heading already shows it). */
function specHasTitle(spec: string, title: string): boolean {
  try {
    const parsed = JSON.parse(spec) as { title?: unknown } | null;
    const own = parsed?.title;
    return (typeof own === 'object' && own !== null ? (own as { text?: unknown }).text : own) === title;
  } catch {
    return false;
  }
}

/**
 * The SQL, collapsible, with a copy button (`data-part="sql"`). Highlighted once it is complete
 * and shown: the tokenizer loads on first open (`sql-highlight.ts`); until then it reads plain.
 */
function SqlBlock({
  sql,
  complete,
  labels,
  defaultOpen,
}: {
  sql: string;
  complete: boolean;
  labels: SqlToolLabels;
  defaultOpen: boolean;
}): ReactNode {
  const [copied, setCopied] = useState(false);
  const [open, setOpen] = useState(defaultOpen);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const segments = useSqlSegments(sql, complete && open);
  const copy = () => {
    void navigator.clipboard?.writeText(sql).then(
      () => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), 2000);
      },
      () => undefined,
    );
  };
  return (
    <details
      className="service-result-sql"
      data-part="sql"
      open={defaultOpen || undefined}
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>{labels.sql}</summary>
      <div className="service-result-sql__body">
        <button
          type="button"
          className="service-result-button service-result-sql__copy"
          onClick={copy}
          data-state={copied ? 'copied' : 'idle'}
        >
          {copied ? labels.copied : labels.copySql}
        </button>
        <pre>
          <code data-state={segments ? 'highlighted' : 'plain'}>
            {segments
              ? segments.map((segment, index) =>
                  segment.name === 'whitespace' || segment.name === 'identifier' ? (
                    segment.content
                  ) : (
                    <span key={index} className={`service-sql-${segment.name}`}>
                      {segment.content}
                    </span>
                  ),
                )
              : sql}
          </code>
        </pre>
      </div>
    </details>
  );
}

/** Downloads `blob` as a file named `name`, through a link that never enters the document. */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Revoked on the next task: the download has taken the blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "Load all", its progress, and its errors, in the table's footer. */
function LoadAllControl({
  load,
  total,
  labels,
  format,
}: {
  load: ReturnType<typeof useLoadAll>;
  total: number;
  labels: SqlToolLabels;
  format: FormatNumber;
}): ReactNode {
  if (load.status === 'loading') {
    return (
      <span className="service-result-load-all" data-state="loading">
        <span role="status">{labels.loadingRows(load.received, format)}</span>
        <button type="button" className="service-result-button" onClick={load.cancel}>
          {labels.cancel}
        </button>
      </span>
    );
  }
  if (load.status === 'error') {
    return (
      <span className="service-result-load-all" data-state="error">
        <span role="alert">{labels.loadAllFailed(load.error?.message ?? '')}</span>
        <button type="button" className="service-result-button" onClick={load.start}>
          {labels.retry}
        </button>
      </span>
    );
  }
  if (load.status === 'success') return null;
  return (
    <button
      type="button"
      className="service-result-button service-result-load-all"
      data-state="idle"
      onClick={load.start}
    >
      {labels.loadAll(total, format)}
    </button>
  );
}

/** A running call: its status, and a skeleton where the table is coming. */
function RunningResult({ labels }: { labels: SqlToolLabels }): ReactNode {
  return (
    <>
      <div className="service-result-sql-tool__running" role="status" data-state="running">
        <span className="service-result-spinner" aria-hidden="true" />
        {labels.running}
      </div>
      {/* Where the table is coming: header and a few rows in the table's own shape. */}
      <div className="service-result-skeleton" data-part="result-skeleton" aria-hidden="true">
        {[0, 1, 2, 3].map((row) => (
          <span key={row} className="service-result-skeleton__row" />
        ))}
      </div>
    </>
  );
}

/** Above a result: the chart/table switch (`view` is undefined without a chart) and the CSV download. */
function ResultToolbar({
  view,
  setView,
  table,
  title,
  labels,
}: {
  view: 'table' | 'chart' | undefined;
  setView: (view: 'table' | 'chart') => void;
  table: ResultTableData;
  title: string;
  labels: SqlToolLabels;
}): ReactNode {
  return (
    <div className="service-result-sql-tool__toolbar">
      {view ? (
        <div className="service-result-switch" role="group" aria-label={labels.viewSwitch}>
          <button type="button" aria-pressed={view === 'chart'} onClick={() => setView('chart')}>
            {labels.chart}
          </button>
          <button type="button" aria-pressed={view === 'table'} onClick={() => setView('table')}>
            {labels.table}
          </button>
        </div>
      ) : null}
      <button
        type="button"
        className="service-result-button"
        onClick={() => download(toCsvBlob(table.columns, table.rows), csvFileName(title))}
      >
        {labels.downloadCsv}
      </button>
    </div>
  );
}

/**
 * The view of one `serviceSqlApi` tool call (`data-part="sql-tool"`, `data-tool="serviceSqlApi"`,
 * `data-state` `running`, `complete` or `error`; ref, `className` and other props on its root `<div>`):
 * its title and description, its SQL (collapsible, with a copy button), and once complete its
 * result as a table typed by `column_type` and, when the agent made one, a Vega-Lite chart, with a
 * chart/table switch and a CSV download.
 *
 * A capped result ("Showing 100 of 1,234 rows") gets a "Load all" button that runs the SQL on the
 * data API with the nearest `ServiceProvider`'s `data` settings, through TanStack Query (the
 * provider's `queryClient`, else an enclosing `QueryClientProvider`'s, else the library's own),
 * showing the rows received so far. Without `data` settings there is no "Load all" button: the
 * view never guesses where the data API is or how to authenticate to it.
 *
 * Bad input stays in its part: a chart that cannot be drawn shows an error card while the table
 * still works, and a result that is not a table shows an error card under the title and SQL.
 * Works without a `ServiceProvider` (no "Load all" then).
 */
export const SqlToolView = /*#__PURE__*/ createPart(
  'SqlToolView',
  'div',
  'sql-tool',
  'service-result-sql-tool',
  function SqlToolView(props: SqlToolViewProps) {
    const {
      call,
      labels: own,
      defaultView,
      locale: givenLocale,
      metadata,
      columnFormats: givenFormats,
      parts = 'all',
      ...rest
    } = props;
    const labels = useLabels(DEFAULT_SQL_TOOL_LABELS, own);
    const settings = useViewSettings();
    const locale = givenLocale ?? settings.locale;
    const input = useMemo(() => textFields(call.input), [call.input]);
    const result = call.status === 'complete' ? call.result : undefined;
    const resultFields = useMemo(() => (result?.kind === 'serviceSqlApi' ? textFields(result.value) : {}), [result]);
    const initialTable = useMemo(() => (result ? toResultTable(result) : undefined), [result]);
    const title = input.queryTitle ?? resultFields.queryTitle ?? labels.untitledQuery;
    const description = input.description ?? resultFields.description;
    const sql = input.sqlQuery ?? resultFields.sqlQuery;
    // The result's own spec first: it belongs to the rows that came back.
    const vegaSpec = result?.kind === 'serviceSqlApi' ? (resultFields.vegaSpec ?? input.vegaSpec) : undefined;
    // The user's choice; until there is one, the default follows the call (a running call has no
    // spec yet, and the same view shows it complete).
    const [chosenView, setView] = useState<'table' | 'chart' | undefined>(undefined);
    const view = chosenView ?? defaultView ?? (vegaSpec ? 'chart' : 'table');
    const load = useLoadAll(initialTable && initialTable.rows.length < initialTable.totalRows ? sql : undefined);
    const format = useFormatNumber(locale);
    // Titles from the metadata tool, currency from the chart's formats, then the caller's own.
    const columnFormats = useMemo(() => {
      const merged = Object.create(null) as ColumnFormats;
      for (const source of [columnTitlesFromMeta(metadata, sql), formatsFromChartSpec(vegaSpec), givenFormats ?? {}])
        for (const [name, value] of Object.entries(source)) merged[name] = { ...merged[name], ...value };
      return merged;
    }, [metadata, sql, vegaSpec, givenFormats]);

    // After "load all", the table and the CSV hold every row; the chart keeps the tool's rows.
    const table: ResultTableData | undefined = useMemo(() => {
      if (!initialTable) return undefined;
      if (!load.data) return initialTable;
      const columns =
        load.data.schema.length > 0
          ? load.data.schema.map((column) => ({ name: column.name, type: column.column_type }))
          : initialTable.columns;
      return { columns, rows: load.data.rows, totalRows: load.data.rows.length };
    }, [initialTable, load.data]);

    const showChart = Boolean(vegaSpec) && view === 'chart';
    const sameTitle = useMemo(() => (vegaSpec ? specHasTitle(vegaSpec, title) : false), [vegaSpec, title]);
    const state = call.status === 'running' ? 'running' : call.status === 'error' ? 'error' : 'complete';
    const query = parts !== 'result';
    const outcome = parts !== 'query';
    return {
      rest,
      state,
      props: { 'data-tool': 'serviceSqlApi' },
      children: (
        <>
          {query ? (
            <div className="service-result-sql-tool__header">
              <p className="service-result-sql-tool__title">{title}</p>
              {description ? <p className="service-result-sql-tool__description">{description}</p> : null}
            </div>
          ) : null}
          {query && sql ? (
            <SqlBlock sql={sql} complete={call.status !== 'running'} labels={labels} defaultOpen={parts === 'query'} />
          ) : null}
          {outcome && call.status === 'running' ? <RunningResult labels={labels} /> : null}
          {outcome && call.status === 'error' ? <ErrorCard title={labels.resultError}>{call.error}</ErrorCard> : null}
          {outcome && call.status === 'complete' && !table ? (
            <ErrorCard title={labels.resultError}>{labels.resultUnreadable}</ErrorCard>
          ) : null}
          {outcome && table ? (
            <div className="service-result-sql-tool__result">
              <ResultToolbar
                view={vegaSpec ? view : undefined}
                setView={setView}
                table={table}
                title={title}
                labels={labels}
              />
              {showChart && initialTable ? (
                <ResultChart
                  spec={vegaSpec!}
                  columns={initialTable.columns}
                  rows={initialTable.rows}
                  title={title}
                  labels={own}
                  showTitle={!sameTitle}
                />
              ) : (
                <ResultTable table={table} title={title} labels={own} locale={locale} columnFormats={columnFormats}>
                  {load.available &&
                  initialTable &&
                  (load.status !== 'idle' || initialTable.rows.length < initialTable.totalRows) ? (
                    <LoadAllControl load={load} total={initialTable.totalRows} labels={labels} format={format} />
                  ) : null}
                </ResultTable>
              )}
            </div>
          ) : null}
        </>
      ),
    };
  },
);
