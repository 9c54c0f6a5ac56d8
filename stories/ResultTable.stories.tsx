import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { DEFAULT_MAX_TABLE_ROWS, DEFAULT_SQL_TOOL_LABELS, ResultTable } from '../src/components/results';
import { REVENUE_TABLE } from './result-stories';

// The rows of a SQL result recorded from the emulator's agent. Edit the rows, `maxRows` (default
// `DEFAULT_MAX_TABLE_ROWS`), the number `locale` or the `labels` (`DEFAULT_SQL_TOOL_LABELS`) in the controls.
const meta = {
  title: 'Chat/Results/ResultTable',
  component: ResultTable,
  tags: ['autodocs'],
  args: {
    table: REVENUE_TABLE,
    title: 'Revenue by month',
    maxRows: DEFAULT_MAX_TABLE_ROWS,
    locale: 'en-US',
    labels: { ...DEFAULT_SQL_TOOL_LABELS },
  },
  argTypes: {
    locale: { control: 'select', options: ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'hi-IN'] },
    children: { control: false },
  },
} satisfies Meta<typeof ResultTable>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Numbers right-aligned by `column_type` and grouped in the locale, a sticky header, the row count. */
export const Table: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const region = canvas.getByRole('region', { name: 'Result of Revenue by month' });
    await expect(within(region).getAllByRole('row')).toHaveLength(args.table.rows.length + 1);
  },
};

/** `maxRows` of 3: the first three rows, and the footer says how many there are. */
export const MaxRows: Story = {
  args: { maxRows: 3 },
  play: async ({ canvasElement, args }) => {
    await expect(canvasElement.querySelectorAll('tbody tr')).toHaveLength(3);
    await expect(within(canvasElement).getByText(`Showing 3 of ${args.table.totalRows} rows`)).toBeInTheDocument();
  },
};

/** German number formatting: `.` groups thousands. */
export const GermanLocale: Story = {
  args: { locale: 'de-DE' },
  play: async ({ canvasElement }) => {
    const cells = [...canvasElement.querySelectorAll('tbody td')].map((cell) => cell.textContent ?? '');
    await expect(cells.some((text) => /^\d{1,3}(\.\d{3})+(,\d+)?$/.test(text))).toBe(true);
  },
};
