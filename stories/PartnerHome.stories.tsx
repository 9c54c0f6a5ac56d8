import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { MetricCard, QueryChart, QueryTable } from '../src/components/data';
import {
  AOV_DECEMBER,
  ORDERS_THIS_MONTH,
  REVENUE_BY_MONTH,
  REVENUE_THIS_MONTH,
  TOP_CUSTOMERS,
  settled,
} from './data-stories';
import { drawnChart } from './result-stories';

/**
 * A partner portal's home page built from the data views, over the live emulator: three KPI
 * tiles, a trend chart and a table of the best customers. Everything comes from the story
 * provider's `data` settings (a token from the partner's `createDataTokenHandler` route, the data
 * API behind a same-origin proxy); switch the theme in the toolbar to see the tokens at work.
 */
function PartnerHome() {
  return (
    <main style={{ display: 'grid', gap: 'var(--service-space-4)', maxWidth: 1080 }}>
      <h1 style={{ margin: 0, fontSize: 'var(--service-font-size-lg)' }}>Acme Analytics: December 2025</h1>
      <section
        aria-label="Key figures"
        style={{
          display: 'grid',
          gap: 'var(--service-space-4)',
          gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))',
        }}
      >
        <MetricCard query={REVENUE_THIS_MONTH} compare="previousPeriod" locale="en-US" />
        <MetricCard query={ORDERS_THIS_MONTH} compare="previousPeriod" title="Orders" locale="en-US" />
        <MetricCard query={AOV_DECEMBER} compare="previousYear" title="Average order value" locale="en-US" />
      </section>
      <QueryChart query={REVENUE_BY_MONTH} title="Revenue by month, 2025" />
      <QueryTable query={TOP_CUSTOMERS} title="Top customers, 2025" pageSize={10} locale="en-US" />
    </main>
  );
}

const meta = {
  title: 'Data/Partner home page',
  component: PartnerHome,
} satisfies Meta<typeof PartnerHome>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Every view loads from the emulator: three tiles with their comparisons, the chart, the table. */
export const Home: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await settled(canvasElement, 'query-table');
    await expect(canvas.getAllByRole('group')).toHaveLength(3);
    const cards = () => canvasElement.querySelectorAll<HTMLElement>('[data-part="metric-card"][data-state="ready"]');
    await waitFor(() => expect(cards()).toHaveLength(3), { timeout: 20_000 });
    for (const card of cards()) {
      await expect(card.querySelector('[data-part="metric-value"]')?.textContent).toMatch(/\d/);
      await expect(card.querySelector('[data-part="metric-comparison"]')).toBeInTheDocument();
    }
    await expect(canvas.getByRole('group', { name: 'Revenue' })).toBeInTheDocument();
    const chart = await drawnChart(canvasElement);
    await expect(chart).toHaveAttribute('data-state', 'ready');
    await expect(canvas.getByRole('region', { name: 'Result of Top customers, 2025' })).toBeInTheDocument();
    await expect(canvasElement.querySelectorAll('tbody tr')).toHaveLength(10);
  },
};
