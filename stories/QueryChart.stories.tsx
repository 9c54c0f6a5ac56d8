import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { DEFAULT_DATA_VIEW_LABELS, QueryChart } from '../src/components/data';
import {
  NEVER_ANSWERS,
  ORDERS_BY_STATUS,
  REVENUE_BY_MONTH,
  REVENUE_BY_REGION_AND_MONTH,
  REVENUE_BY_REGION_SQL,
  settled,
} from './data-stories';
import { drawnChart } from './result-stories';

// A chart of a query over the live emulator, drawn by the chat's `ResultChart` (Vega loaded on
// demand, the spec made safe, the `--service-chart-*` theme). Without `spec` the chart is chosen
// from the result's shape; edit the query or give a spec in the controls.
const meta = {
  title: 'Data/QueryChart',
  component: QueryChart,
  tags: ['autodocs'],
  args: { query: REVENUE_BY_MONTH, title: 'Revenue by month', labels: { ...DEFAULT_DATA_VIEW_LABELS } },
  argTypes: {
    query: { control: 'object' },
    spec: { control: 'object' },
    settings: { control: false },
    queryClient: { control: false },
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 760 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof QueryChart>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A time dimension by month: a line, one point per month. */
export const Line: Story = {
  play: async ({ canvasElement }) => {
    await settled(canvasElement, 'query-chart');
    const chart = await drawnChart(canvasElement);
    await expect(chart).toHaveAttribute('data-state', 'ready');
    await expect(chart.querySelectorAll('g.mark-symbol path')).toHaveLength(12);
  },
};

/** A time dimension and a category: one line per region. */
export const LinePerCategory: Story = {
  args: { query: REVENUE_BY_REGION_AND_MONTH, title: 'Revenue by region and month' },
  play: async ({ canvasElement }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart.querySelectorAll('g.mark-line path')).toHaveLength(4);
  },
};

/** One category: bars, largest first. */
export const Bars: Story = {
  args: { query: ORDERS_BY_STATUS, title: 'Orders by status' },
  play: async ({ canvasElement }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart.querySelectorAll('g.mark-rect path')).toHaveLength(5);
  },
};

/** SQL, with a spec of your own that names the columns as the query does. */
export const SqlWithSpec: Story = {
  args: {
    query: REVENUE_BY_REGION_SQL,
    title: 'Revenue by region',
    spec: {
      mark: { type: 'arc', innerRadius: 60 },
      encoding: {
        theta: { field: 'revenue', type: 'quantitative' },
        color: { field: 'region', type: 'nominal', title: 'Region' },
      },
    },
  },
  play: async ({ canvasElement }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart).toHaveAttribute('data-state', 'ready');
    await expect(chart.querySelectorAll('g.mark-arc path')).toHaveLength(4);
  },
};

/** While the query runs: a skeleton of the chart's size. */
export const Loading: Story = {
  args: { settings: NEVER_ANSWERS },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-part="query-chart"]')).toHaveAttribute('data-state', 'loading');
    await expect(within(canvasElement).getByRole('img', { name: 'Loading… Revenue by month' })).toBeInTheDocument();
  },
};

/** A result with no number to draw. */
export const NothingToDraw: Story = {
  args: { query: { dimensions: ['orders.region'] }, title: 'Regions' },
  play: async ({ canvasElement }) => {
    const root = await settled(canvasElement, 'query-chart');
    await expect(root).toHaveAttribute('data-state', 'error');
    await expect(within(root).getByRole('alert')).toHaveTextContent('no numbers to chart');
  },
};

/** A query the data API rejects: the error, and a retry button. */
export const QueryError: Story = {
  args: { query: 'SELECT no_such_column FROM orders' },
  play: async ({ canvasElement }) => {
    const root = await settled(canvasElement, 'query-chart');
    await expect(root).toHaveAttribute('data-state', 'error');
    await expect(within(root).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
};
