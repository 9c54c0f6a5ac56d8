import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { DEFAULT_DATA_VIEW_LABELS, QueryTable } from '../src/components/data';
import { NEVER_ANSWERS, REVENUE_BY_REGION_SQL, TOP_CUSTOMERS, settled } from './data-stories';

// The result table of a query over the live emulator, as the chat's `ResultTable` formats it, with
// sortable headers and "Load more". Edit the query, the page size or the labels in the controls.
const meta = {
  title: 'Data/QueryTable',
  component: QueryTable,
  tags: ['autodocs'],
  args: {
    query: TOP_CUSTOMERS,
    title: 'Top customers',
    pageSize: 10,
    locale: 'en-US',
    labels: { ...DEFAULT_DATA_VIEW_LABELS },
  },
  argTypes: {
    query: { control: 'object' },
    locale: { control: 'select', options: ['en-US', 'de-DE', 'fr-FR', 'ja-JP'] },
    sort: { control: 'object' },
    defaultSort: { control: 'object' },
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
} satisfies Meta<typeof QueryTable>;

export default meta;
type Story = StoryObj<typeof meta>;

const bodyRows = (root: HTMLElement) => root.querySelectorAll('tbody tr');

/** A JSON query read ten rows at a time: "Load more" asks the data API for the next ten. */
export const LoadMore: Story = {
  play: async ({ canvasElement }) => {
    const root = await settled(canvasElement, 'query-table');
    await expect(bodyRows(root)).toHaveLength(10);
    await expect(within(root).getByText('10 rows loaded')).toBeInTheDocument();
    await userEvent.click(within(root).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(bodyRows(root)).toHaveLength(20), { timeout: 20_000 });
  },
};

/** Sorted by the header clicked: the data API orders every page. */
export const Sorted: Story = {
  play: async ({ canvasElement }) => {
    const root = await settled(canvasElement, 'query-table');
    const header = within(root).getByRole('columnheader', { name: 'Count' });
    await userEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'descending'));
    await waitFor(async () => {
      const counts = [...bodyRows(root)].map((row) => Number(row.children[3]!.textContent!.replace(/,/g, '')));
      await expect(counts).toEqual([...counts].sort((a, b) => b - a));
    });
  },
};

/** SQL arrives whole: sorted in the browser (here by a controlled sort), shown a page at a time. */
export const Sql: Story = {
  args: {
    query: REVENUE_BY_REGION_SQL,
    title: 'Revenue by region',
    pageSize: 3,
    defaultSort: { column: 'revenue', direction: 'desc' },
  },
  play: async ({ canvasElement }) => {
    const root = await settled(canvasElement, 'query-table');
    await expect(within(root).getByText('Showing 3 of 4 rows')).toBeInTheDocument();
    await expect(within(root).getByRole('columnheader', { name: 'Revenue' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  },
};

/** While the query runs: a skeleton of rows. */
export const Loading: Story = {
  args: { settings: NEVER_ANSWERS },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-part="query-table"]')).toHaveAttribute('data-state', 'loading');
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Loading…');
  },
};

/** A query the data API rejects: the error, and a retry button. */
export const QueryError: Story = {
  args: { query: { measures: ['orders.count'], dimensions: ['orders.no_such_dimension'] } },
  play: async ({ canvasElement }) => {
    const root = await settled(canvasElement, 'query-table');
    await expect(root).toHaveAttribute('data-state', 'error');
    await expect(within(root).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
};
