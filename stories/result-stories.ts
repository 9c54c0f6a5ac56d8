/**
 * What the result part stories share: the recorded `serviceSqlApi` result of "revenue by month"
 * (from the emulator's agent), as a table, its columns and rows, and the agent's chart spec.
 */
import { waitFor } from 'storybook/test';
import { toResultTable, type ResultTable } from '../src/core/protocol/tools';
import { sqlToolCall } from '../test/fixtures/sql-tool-calls';

const call = sqlToolCall('revenueByMonth');
const result = call.status === 'complete' ? call.result : undefined;

/** The result as `toResultTable` gives it to `ResultTable`. */
export const REVENUE_TABLE: ResultTable = (result && toResultTable(result)) ?? { columns: [], rows: [], totalRows: 0 };

/** The agent's Vega-Lite spec, parsed, so the control edits it as an object. */
export const REVENUE_SPEC = JSON.parse(
  result?.kind === 'serviceSqlApi' ? (result.value.vegaSpec ?? '{}') : '{}',
) as Record<string, unknown>;

/** The chart part once vega has drawn it (or given up). */
export async function drawnChart(canvasElement: HTMLElement): Promise<HTMLElement> {
  return waitFor(
    () => {
      const chart = canvasElement.querySelector<HTMLElement>('[data-part="chart"]');
      if (chart?.dataset.state !== 'ready' && chart?.dataset.state !== 'error')
        throw new Error('the chart is still loading');
      return chart;
    },
    { timeout: 20_000 },
  );
}
