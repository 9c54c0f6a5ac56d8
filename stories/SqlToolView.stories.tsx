import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { DEFAULT_SQL_TOOL_LABELS, SqlToolView } from '../src/components/results';
import { createChatClient } from '../src/core/chat-client';
import { createThreadStore, type ChatToolCall } from '../src/core/thread-store';
import { editedSqlToolCall, sqlToolCall, sqlWire, toChatToolCall } from '../test/fixtures/sql-tool-calls';
import { drawnChart } from './result-stories';

// The view of a `serviceSqlApi` tool call, fed by calls recorded from the emulator's agent
// (`test/fixtures/sql-tool-calls.json`); "Load all" runs against the live emulator through the
// story provider's data settings (the partner routes of `.storybook/service-backend.ts`).
const meta = {
  title: 'Chat/SqlToolView',
  component: SqlToolView,
  tags: ['autodocs'],
  args: { call: sqlToolCall('revenueByMonth'), labels: { ...DEFAULT_SQL_TOOL_LABELS } },
  argTypes: { call: { control: 'object' }, defaultView: { control: 'inline-radio', options: ['chart', 'table'] } },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 760 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof SqlToolView>;

export default meta;

type Story = StoryObj<typeof meta>;

const resultRows = (name: 'revenueByMonth' | 'ordersByStatus' | 'revenueByRegion' | 'topCustomers') =>
  (JSON.parse(sqlWire(name).result!) as { data: string[][] }).data;

/** The tool is still running: title, description and SQL from its input. */
export const Running: Story = {
  args: { call: sqlToolCall('revenueByMonth', 'running') },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('status')).toHaveTextContent('Running query…');
    await expect(canvasElement.querySelector('[data-part="sql-tool"]')).toHaveAttribute('data-state', 'running');
    await expect(canvasElement.querySelector('[data-part="result-table"]')).toBeNull();
  },
};

/** A complete result shown as its table. */
export const Table: Story = {
  args: { call: sqlToolCall('revenueByRegion'), defaultView: 'table' },
  play: async ({ canvasElement }) => {
    const table = within(canvasElement.querySelector<HTMLElement>('[data-part="result-table"]')!);
    await expect(table.getAllByRole('row')).toHaveLength(resultRows('revenueByRegion').length + 1);
    await expect(table.getByRole('columnheader', { name: 'Revenue' })).toHaveAttribute('data-kind', 'number');
  },
};

/** A complete result shown as the agent's Vega-Lite chart, drawn from `result.data`. */
export const Chart: Story = {
  args: { call: sqlToolCall('ordersByStatus') },
  play: async ({ canvasElement }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart).toHaveAttribute('data-state', 'ready');
    await expect(chart.querySelectorAll('g.mark-rect path')).toHaveLength(resultRows('ordersByStatus').length);
  },
};

/** The line chart of a year of monthly revenue. */
export const LineChart: Story = {
  args: { call: sqlToolCall('revenueByMonth') },
  play: async ({ canvasElement }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart.querySelectorAll('g.mark-symbol path')).toHaveLength(resultRows('revenueByMonth').length);
  },
};

/** Switching between chart and table. */
export const Toggle: Story = {
  args: { call: sqlToolCall('revenueByRegion') },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await drawnChart(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Table' }));
    await expect(canvas.getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');
    await expect(canvasElement.querySelector('[data-part="chart"]')).toBeNull();
    await expect(canvasElement.querySelector('[data-part="result-table"]')).not.toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Chart' }));
    await expect(await drawnChart(canvasElement)).toHaveAttribute('data-state', 'ready');
  },
};

/** A capped result (100 of 250 rows): "Load all" runs the SQL on the live emulator's data API. */
export const LoadAll: Story = {
  args: { call: sqlToolCall('topCustomers'), defaultView: 'table' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Showing 100 of 250 rows')).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Load all 250 rows' }));
    await waitFor(() => expect(canvas.getByText('250 rows')).toBeInTheDocument(), { timeout: 20_000 });
    await expect(canvasElement.querySelectorAll('[data-part="result-table"] tbody tr')).toHaveLength(250);
  },
};

/** The older result shape (rows as objects, plus an annotation) renders as a table. */
export const LegacyShape: Story = {
  args: {
    call: toChatToolCall({
      name: 'serviceSqlApi',
      input: JSON.stringify({
        queryTitle: 'Orders by region',
        description: 'The older result shape.',
        sqlQuery: 'SELECT region, MEASURE(orders.count) FROM orders GROUP BY 1',
      }),
      result: JSON.stringify({
        data: resultRows('revenueByRegion').map(([region, revenue, orders]) => ({
          'orders.region': region,
          'orders.total_revenue': revenue,
          'orders.count': orders,
        })),
        annotation: { measures: {}, dimensions: {} },
      }),
    }),
  },
  play: async ({ canvasElement }) => {
    const table = within(canvasElement.querySelector<HTMLElement>('[data-part="result-table"]')!);
    // Member names read as titles (the view is the table's subject).
    await expect(table.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Region',
      'Total revenue',
      'Count',
    ]);
  },
};

/** A `vegaSpec` that is not valid Vega-Lite: an error card for the chart, the table still there. */
export const BadSpec: Story = {
  args: {
    call: editedSqlToolCall('ordersByStatus', ({ input, result }) => {
      input.vegaSpec = result.vegaSpec = JSON.stringify({
        mark: 'pie-in-the-sky',
        encoding: { x: { field: 'status' } },
      });
    }),
  },
  play: async ({ canvasElement }) => {
    const chart = await drawnChart(canvasElement);
    await expect(chart).toHaveAttribute('data-state', 'error');
    await expect(within(chart).getByRole('alert')).toHaveTextContent(/not a valid Vega-Lite chart/);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Table' }));
    await expect(canvasElement.querySelector('[data-part="result-table"]')).not.toBeNull();
  },
};

/** A `vegaSpec` that is not JSON at all. */
export const BrokenSpecJson: Story = {
  args: {
    call: editedSqlToolCall('revenueByRegion', ({ input, result }) => {
      input.vegaSpec = result.vegaSpec = '{"mark": {"type": "arc"';
    }),
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(/not valid JSON/);
  },
};

/** `result.data` that does not match its schema: the chart refuses to misread it, the table shows it as sent. */
export const BadData: Story = {
  args: {
    call: editedSqlToolCall('ordersByStatus', ({ result }) => {
      (result.data as string[][])[2]![1] = 'eight thousand';
    }),
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(
      /Row 3, column "orders": "eight thousand" is not a number/,
    );
  },
};

/** A tool error given to the view anyway: an error card under the title and SQL. */
export const ToolError: Story = {
  args: { call: sqlToolCall('margin') },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(/gross_margin/);
  },
};

/** Dark theme: tokens of the theme, chart text in the theme's text colour. */
export const DarkTheme: Story = {
  args: { call: sqlToolCall('ordersByStatus') },
  globals: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const chart = await drawnChart(canvasElement);
    const text = getComputedStyle(chart).getPropertyValue('--service-color-text').trim();
    await expect(chart.querySelector('g.role-axis-label text')).toHaveAttribute('fill', text);
  },
};

/** Every string replaced through `labels`. */
export const Labels: Story = {
  args: {
    call: sqlToolCall('topCustomers'),
    defaultView: 'table',
    labels: {
      sql: 'Abfrage',
      copySql: 'SQL kopieren',
      chart: 'Diagramm',
      table: 'Tabelle',
      viewSwitch: 'Ergebnis anzeigen als',
      downloadCsv: 'CSV herunterladen',
      showingRows: (shown, total, format) => `${format(shown)} von ${format(total)} Zeilen`,
      loadAll: (total, format) => `Alle ${format(total)} Zeilen laden`,
      tableLabel: (title) => `Ergebnis von ${title}`,
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('100 von 250 Zeilen')).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Alle 250 Zeilen laden' })).toBeInTheDocument();
  },
};

/**
 * Live: the question is asked of the emulator's agent through the chat proxy route (as a partner
 * app does), the stream goes through the core thread store, and its `serviceSqlApi` call is shown.
 */
export const LiveFromEmulator: Story = {
  loaders: [
    async () => {
      const store = createThreadStore();
      const chat = createChatClient({ url: '/api/service' });
      store.begin();
      for await (const line of chat.stream({ input: 'Who are our top 120 customers?' })) store.apply(line);
      store.end();
      const call = store.getSnapshot().messages.find((message) => message.toolCall?.name === 'serviceSqlApi')?.toolCall;
      if (!call) throw new Error('the live answer had no serviceSqlApi call');
      return { liveCall: call };
    },
  ],
  render: (args, { loaded }) => <SqlToolView {...args} call={loaded.liveCall as ChatToolCall} />,
  args: { defaultView: 'table' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvasElement.querySelector('[data-part="sql-tool"]')).toHaveAttribute('data-state', 'complete');
    await expect(canvas.getByText('Showing 100 of 120 rows')).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Load all 120 rows' }));
    await waitFor(() => expect(canvas.getByText('120 rows')).toBeInTheDocument(), { timeout: 20_000 });
  },
};

/** The SQL opened: highlighted once the tokenizer has loaded (classes and tokens, no inline styles). */
export const HighlightedSql: Story = {
  args: { call: sqlToolCall('revenueByMonth'), defaultView: 'table' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByText('SQL'));
    const code = canvasElement.querySelector<HTMLElement>('[data-part="sql"] code')!;
    await waitFor(() => expect(code).toHaveAttribute('data-state', 'highlighted'), { timeout: 10_000 });
    await expect(code.querySelector('.service-sql-keyword')).toHaveTextContent('SELECT');
  },
};

/** A table in another locale with the data model's titles: German numbers and months, "Gesamtumsatz" from the metadata tool. */
export const LocaleAndTitles: Story = {
  args: {
    call: sqlToolCall('revenueByMonth'),
    defaultView: 'table',
    locale: 'de-DE',
    metadata: [
      {
        searchQuery: 'revenue',
        cubes: [
          {
            name: 'orders',
            type: 'view',
            title: 'Orders',
            members: [{ name: 'orders.total_revenue', title: 'Gesamtumsatz', type: 'number' }],
          },
        ],
      },
    ],
  },
  play: async ({ canvasElement }) => {
    const table = within(canvasElement.querySelector<HTMLElement>('[data-part="result-table"]')!);
    await expect(table.getByRole('columnheader', { name: 'Gesamtumsatz' })).toBeInTheDocument();
    await expect(table.getByText('Jan. 2025')).toBeInTheDocument();
    await expect(table.getByText('12 rows')).toBeInTheDocument();
  },
};

/** A hostile chart spec past a limit (a sequence of 50 million values flattened): the error card, and the table still works. */
export const ChartPastALimit: Story = {
  args: {
    call: editedSqlToolCall('ordersByStatus', ({ input, result }) => {
      input.vegaSpec = result.vegaSpec = JSON.stringify({
        mark: 'bar',
        transform: [{ calculate: 'sequence(0, 50000000)', as: 'n' }, { flatten: ['n'] }],
        encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } },
      });
    }),
  },
  play: async ({ canvasElement }) => {
    const chart = canvasElement.querySelector<HTMLElement>('[data-part="chart"]')!;
    await waitFor(() => expect(chart).toHaveAttribute('data-state', 'error'), { timeout: 20_000 });
    await expect(within(chart).getByRole('alert')).toHaveTextContent(/more than 100000 values/);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Table' }));
    await expect(canvasElement.querySelector('[data-part="result-table"]')).not.toBeNull();
  },
};
