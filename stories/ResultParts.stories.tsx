import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { ResultChart, ResultTable } from '../src/components/results';
import { ErrorCard } from '../src/components/results/ErrorCard';
import { toResultTable } from '../src/core/protocol/tools';
import { sqlToolCall } from '../test/fixtures/sql-tool-calls';

/**
 * The two halves of the SQL tool view, alone: the typed result table and the Vega-Lite chart, fed
 * by a `serviceSqlApi` result recorded from the emulator's agent.
 */
const meta: Meta = { title: 'Chat/Results/Parts' };
export default meta;

const call = sqlToolCall('revenueByMonth');
const result = call.status === 'complete' ? call.result : undefined;
const table = result ? toResultTable(result)! : { columns: [], rows: [], totalRows: 0 };
const spec = result?.kind === 'serviceSqlApi' ? (result.value.vegaSpec ?? '') : '';

/** `ResultTable`: numbers right-aligned by `column_type`, a sticky header, the row count. */
export const Table: StoryObj = {
  render: () => <ResultTable table={table} title="Revenue by month" />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('table')).toBeInTheDocument();
    await expect(canvas.getAllByRole('row').length).toBe(table.rows.length + 1);
  },
};

/** `ResultChart`: the agent's spec drawn with the result's rows (vega loaded on demand). */
export const Chart: StoryObj = {
  render: () => <ResultChart spec={spec} columns={table.columns} rows={table.rows} title="Revenue by month" />,
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('[data-part="chart"] svg')).not.toBeNull(), { timeout: 15_000 });
  },
};

/** `ErrorCard`: what stands in for one part that cannot be shown (here the chart); the rest stays. */
export const PartError: StoryObj = {
  render: () => <ErrorCard title="The chart could not be drawn">The spec is not Vega-Lite.</ErrorCard>,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent('The chart could not be drawn');
  },
};
