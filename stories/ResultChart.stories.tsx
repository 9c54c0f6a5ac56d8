import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { DEFAULT_SQL_TOOL_LABELS, ResultChart } from '../src/components/results';
import { MAX_SPEC_DEPTH } from '../src/components/results/vega';
import { drawnChart, REVENUE_SPEC, REVENUE_TABLE } from './result-stories';

// The agent's Vega-Lite spec drawn with the result's rows (vega loaded on demand), both recorded
// from the emulator's agent. Edit the spec or the rows in the controls: the chart is drawn again.
const meta = {
  title: 'Chat/Results/ResultChart',
  component: ResultChart,
  tags: ['autodocs'],
  args: {
    spec: REVENUE_SPEC,
    columns: REVENUE_TABLE.columns,
    rows: REVENUE_TABLE.rows,
    title: 'Revenue by month',
    labels: { ...DEFAULT_SQL_TOOL_LABELS },
  },
  argTypes: { spec: { control: 'object' }, columns: { control: 'object' }, rows: { control: 'object' } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 760 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ResultChart>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A line of monthly revenue, one point per row. */
export const Chart: Story = {
  play: async ({ canvasElement, args }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart).toHaveAttribute('data-state', 'ready');
    await expect(chart.querySelectorAll('g.mark-symbol path')).toHaveLength(args.rows.length);
  },
};

const FOREIGN_URL = 'https://tracker.example/revenue.csv';

/**
 * A spec that names data of its own (here a URL): the chart still draws the result's rows. Every
 * `data` of a spec becomes the one injected dataset, `RESULT_DATA_NAME` (`"result"`), and the
 * loader refuses every URL, so a spec never makes the page request anything.
 */
export const ForeignDataIgnored: Story = {
  args: {
    spec: { ...REVENUE_SPEC, title: 'Revenue by month (the spec asked for a URL)', data: { url: FOREIGN_URL } },
  },
  play: async ({ canvasElement, args }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart).toHaveAttribute('data-state', 'ready');
    await expect(chart.querySelectorAll('g.mark-symbol path')).toHaveLength(args.rows.length);
    await expect(performance.getEntriesByName(FOREIGN_URL)).toHaveLength(0);
  },
};

/** Objects nested `depth` deep: `{ a: { a: ... } }`. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < depth; level += 1) value = { a: value };
  return value;
}

/**
 * A spec nested deeper than `MAX_SPEC_DEPTH` (64) levels is refused with an error card, as is spec
 * text longer than `MAX_SPEC_LENGTH` (1,000,000 characters): real specs are a few levels and a few
 * kilobytes, and a bomb must not stall the page.
 */
export const TooDeep: Story = {
  args: { spec: { ...REVENUE_SPEC, usermeta: nested(MAX_SPEC_DEPTH) } },
  play: async ({ canvasElement }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart).toHaveAttribute('data-state', 'error');
    await expect(within(chart).getByRole('alert')).toHaveTextContent(`nested deeper than ${MAX_SPEC_DEPTH} levels`);
  },
};
