import { useEffect, useMemo, useRef, useState, type ComponentPropsWithoutRef } from 'react';
import { toChartRecords, type ResultColumn } from '../../core/result-data';
import { resolveChartLimits, type ChartLimits } from './chart-limits';
import { parseVegaLiteSpec, type ChartProblem } from './spec';
import { ErrorCard } from './ErrorCard';
import { DEFAULT_SQL_TOOL_LABELS, type SqlToolLabels } from './labels';
import { createPart } from '../part';
import { useLabels } from '../view-settings';
import { useChartTheme } from './use-chart-theme';

/** The drawing half (`vega.ts`, with the spec's sanitizer, guards and theme): a chunk loaded when a chart mounts. */
const loadChartRuntime = () =>
  import('./vega').catch((cause: unknown) => {
    const error = new Error(
      `the chart code could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    error.name = 'ChartLibrariesUnavailable';
    throw error;
  });

/** Props of {@link ResultChart}; other props go to its root `<div>`. */
export interface ResultChartProps extends Omit<ComponentPropsWithoutRef<'div'>, 'title' | 'children'> {
  /**
   * The Vega-Lite spec: a `serviceSqlApi` `vegaSpec` (JSON text) or the parsed object. Its own data
   * sources are ignored: the chart draws `rows`.
   */
  spec: string | Record<string, unknown>;
  /** The result's columns (`schema` of a `serviceSqlApi` result: `name` and `column_type` as `type`). */
  columns: readonly ResultColumn[];
  /** The result's rows (`data`), converted by the column types: numbers, dates, booleans, strings. */
  rows: readonly unknown[];
  /** What the chart shows, for its accessible name; default the spec's title, else `labels.untitledQuery`. */
  title?: string;
  /** UI strings over those of an enclosing `AgentChat` and the defaults; see `SqlToolLabels`. */
  labels?: Partial<SqlToolLabels>;
  /**
   * Whether the chart draws the spec's own title. Default true; `SqlToolView`, whose heading
   * already shows the query title, turns it off when the two are the same.
   */
  showTitle?: boolean;
  /**
   * Limits on what the spec may make the page do (rows, generated values, sizes, views, bins),
   * over `DEFAULT_CHART_LIMITS`. A chart past one shows its error card.
   */
  limits?: Partial<ChartLimits>;
}

type ChartState = { status: 'loading' } | { status: 'ready' } | { status: 'error'; problem: ChartProblem };

/** Height of the skeleton: the spec's own height plus room for a title and axes, else 300 px. */
function skeletonHeight(spec: unknown): number {
  const height = typeof spec === 'object' && spec !== null ? (spec as { height?: unknown }).height : undefined;
  return typeof height === 'number' && Number.isFinite(height) && height > 0 ? Math.min(height, 2000) + 60 : 300;
}

function specTitle(spec: unknown): string | undefined {
  const title = typeof spec === 'object' && spec !== null ? (spec as { title?: unknown }).title : undefined;
  if (typeof title === 'string') return title;
  if (typeof title === 'object' && title !== null && typeof (title as { text?: unknown }).text === 'string')
    return (title as { text: string }).text;
  return undefined;
}

/** Why drawing failed, as the error card says it. */
function toProblem(error: unknown): ChartProblem {
  const message = error instanceof Error ? error.message : String(error);
  // Both classes live in the chunk loaded on demand: known by their names.
  const name = error instanceof Error ? error.name : '';
  const kind = name === 'ChartLimitError' ? 'limit' : name === 'ChartLibrariesUnavailable' ? 'unavailable' : 'spec';
  return { kind, message };
}

function problemText(problem: ChartProblem, labels: SqlToolLabels): string {
  const label = {
    json: labels.chartInvalidJson,
    spec: labels.chartInvalidSpec,
    data: labels.chartDataMismatch,
    limit: labels.chartTooLarge,
    unavailable: labels.chartUnavailable,
  }[problem.kind];
  return label(problem.message);
}

/**
 * A Vega-Lite chart of a SQL result (`data-part="chart"`): the agent's `vegaSpec` drawn with the
 * result's rows, in the service's default chart style and, in dark mode, the theme's text colour.
 *
 * vega-embed, vega-lite and vega-interpreter (optional peers) load with `import()` when the first
 * chart mounts; a skeleton of the chart's size holds its place until then. The spec cannot make
 * the page load anything, run code or change how it is embedded (see `vega.ts`). A spec that is
 * not JSON or not Vega-Lite, rows that do not match their columns, or libraries that fail to load
 * give an error card in place of the chart, never an exception. The view is finalized on unmount.
 * Ref, `className` and other props go to its root `<div>` (`data-state` `loading`, `ready`, `error`).
 */
export const ResultChart = /*#__PURE__*/ createPart(
  'ResultChart',
  'div',
  'chart',
  'service-result-chart',
  function ResultChart(props: ResultChartProps) {
    const {
      spec,
      columns,
      rows,
      title: givenTitle,
      labels: own,
      showTitle = true,
      limits: givenLimits,
      ...rest
    } = props;
    const labels = useLabels(DEFAULT_SQL_TOOL_LABELS, own);
    const container = useRef<HTMLDivElement>(null);
    const target = useRef<HTMLDivElement>(null);
    const theme = useChartTheme(container);
    // By value: an inline `limits={{ maxRows: 100 }}` does not redraw the chart on every render.
    const limitsKey = JSON.stringify(givenLimits ?? null);
    const limits = useMemo(
      () => resolveChartLimits((JSON.parse(limitsKey) as Partial<ChartLimits> | null) ?? undefined),
      [limitsKey],
    );
    const parsed = useMemo(() => parseVegaLiteSpec(spec, limits), [spec, limits]);
    const records = useMemo(() => {
      // Counted before converting: reading a million rows is itself the freeze.
      if (rows.length > limits.maxRows)
        return {
          ok: false as const,
          problem: {
            kind: 'limit' as const,
            message: `the result has ${rows.length} rows, more than ${limits.maxRows}`,
          },
        };
      try {
        return { ok: true as const, records: toChartRecords(columns, rows) };
      } catch (error) {
        return {
          ok: false as const,
          problem: { kind: 'data' as const, message: error instanceof Error ? error.message : String(error) },
        };
      }
    }, [columns, rows, limits]);
    const title = givenTitle ?? (parsed.ok ? specTitle(parsed.spec) : undefined) ?? labels.untitledQuery;
    const description = labels.chartLabel(title);
    const [state, setState] = useState<ChartState>({ status: 'loading' });
    const inputProblem = !parsed.ok ? parsed.problem : !records.ok ? records.problem : undefined;

    useEffect(() => {
      const element = target.current;
      if (!element || !theme || !parsed.ok || !records.ok) return;
      let finalize: (() => void) | undefined;
      let cancelled = false;
      const controller = new AbortController();
      setState({ status: 'loading' });
      // Sanitized and checked against the limits first (a throw there rejects like a failed draw):
      // a chart past a limit shows its error card without Vega ever seeing it.
      loadChartRuntime()
        .then(({ prepareSpec, embedChart }) =>
          embedChart(
            element,
            prepareSpec(parsed.spec, records.records, {
              description,
              theme,
              limits,
              columns: columns.map((column) => column.name),
              width: element.clientWidth || undefined,
              showTitle,
            }),
            { theme, limits, signal: controller.signal },
          ),
        )
        .then(
          (done) => {
            if (cancelled) done();
            else {
              finalize = done;
              setState({ status: 'ready' });
            }
          },
          (error: unknown) => {
            if (cancelled) return;
            element.replaceChildren();
            setState({ status: 'error', problem: toProblem(error) });
          },
        );
      return () => {
        cancelled = true;
        controller.abort();
        finalize?.();
        element.replaceChildren();
      };
    }, [parsed, records, theme, description, limits, columns, showTitle]);

    const problem = inputProblem ?? (state.status === 'error' ? state.problem : undefined);
    const loading = !problem && state.status === 'loading';
    const height = skeletonHeight(parsed.ok ? parsed.spec : undefined);
    return {
      rest,
      state: problem ? 'error' : state.status,
      props: { ref: container },
      children: problem ? (
        <ErrorCard title={labels.chartError}>{problemText(problem, labels)}</ErrorCard>
      ) : (
        <>
          {loading ? (
            <div
              className="service-result-chart__skeleton"
              role="img"
              aria-label={labels.chartLoading}
              aria-busy="true"
              style={{ height }}
            />
          ) : null}
          <div ref={target} className="service-result-chart__canvas" role="figure" aria-label={description} />
        </>
      ),
    };
  },
);
