import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { DEFAULT_DATA_VIEW_LABELS, MetricCard } from '../src/components/data';
import { AOV_DECEMBER, NEVER_ANSWERS, ORDERS_THIS_MONTH, REVENUE_THIS_MONTH, settled } from './data-stories';

// A KPI tile over the live emulator: the story provider's data settings (the partner routes of
// `.storybook/service-backend.ts`: a data token from `createDataTokenHandler`, the data API
// behind a same-origin proxy). Edit the query, the comparison or the labels in the controls.
const meta = {
  title: 'Data/MetricCard',
  component: MetricCard,
  tags: ['autodocs'],
  args: { query: REVENUE_THIS_MONTH, locale: 'en-US', labels: { ...DEFAULT_DATA_VIEW_LABELS } },
  argTypes: {
    query: { control: 'object' },
    compare: { control: 'object' },
    positiveDirection: { control: 'inline-radio', options: ['up', 'down'] },
    locale: { control: 'select', options: ['en-US', 'de-DE', 'fr-FR', 'ja-JP'] },
    settings: { control: false },
    queryClient: { control: false },
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 320 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof MetricCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Revenue this month: the measure's title and its value as currency, from the annotation. */
export const Value: Story = {
  play: async ({ canvasElement }) => {
    const card = await settled(canvasElement, 'metric-card');
    await expect(card).toHaveAttribute('data-state', 'ready');
    await expect(within(canvasElement).getByRole('group', { name: 'Revenue' })).toBe(card);
    await expect(card.querySelector('[data-part="metric-value"]')?.textContent).toMatch(/^\$[\d,]+(\.\d\d)?$/);
  },
};

/** Compared with last month: the change, its arrow and colour, and a sentence for screen readers. */
export const ComparedWithPreviousPeriod: Story = {
  args: { compare: 'previousPeriod' },
  play: async ({ canvasElement }) => {
    const card = await settled(canvasElement, 'metric-card');
    const comparison = card.querySelector<HTMLElement>('[data-part="metric-comparison"]')!;
    await expect(comparison.dataset.direction).toMatch(/^(up|down|flat)$/);
    await expect(comparison.textContent).toMatch(/\d+\.\d% vs\. previous period/);
    await expect(comparison.querySelector('.service-visually-hidden')?.textContent).toMatch(
      /^(Up|Down) \d+\.\d% from \$[\d,.]+ in the previous period$/,
    );
  },
};

/** December against the December before: `previousYear` of an explicit date range. */
export const ComparedWithPreviousYear: Story = {
  args: { query: AOV_DECEMBER, compare: 'previousYear', title: 'Average order value, December' },
  play: async ({ canvasElement }) => {
    const card = await settled(canvasElement, 'metric-card');
    const comparison = card.querySelector<HTMLElement>('[data-part="metric-comparison"]')!;
    await expect(comparison.textContent).toMatch(/vs\. previous year/);
    await expect(comparison.querySelector('.service-visually-hidden')?.textContent).toMatch(/in the previous year$/);
  },
};

/** A count in German: grouping and words from the locale and the labels. */
export const GermanLabels: Story = {
  args: {
    query: ORDERS_THIS_MONTH,
    compare: 'previousPeriod',
    title: 'Bestellungen',
    locale: 'de-DE',
    labels: {
      ...DEFAULT_DATA_VIEW_LABELS,
      comparisonPeriod: () => 'ggü. Vormonat',
      comparison: ({ direction, change, previous }) =>
        `${direction === 'up' ? 'Plus' : direction === 'down' ? 'Minus' : 'Unverändert'} ${change} gegenüber ${previous} im Vormonat`,
    },
  },
  play: async ({ canvasElement }) => {
    const card = await settled(canvasElement, 'metric-card');
    await expect(card.querySelector('[data-part="metric-value"]')?.textContent).toMatch(/^\d{1,3}(\.\d{3})*$/);
    await expect(card.textContent).toContain('ggü. Vormonat');
  },
};

/** While the query runs: a skeleton of the title and value, `aria-busy`. */
export const Loading: Story = {
  args: { settings: NEVER_ANSWERS },
  play: async ({ canvasElement }) => {
    const card = canvasElement.querySelector<HTMLElement>('[data-part="metric-card"]')!;
    await expect(card).toHaveAttribute('data-state', 'loading');
    await expect(card).toHaveAttribute('aria-busy', 'true');
  },
};

/** A query the data API rejects: the error, and a retry button. */
export const QueryError: Story = {
  args: { query: { measures: ['orders.unknown_measure'] } },
  play: async ({ canvasElement }) => {
    const card = await settled(canvasElement, 'metric-card');
    await expect(card).toHaveAttribute('data-state', 'error');
    await expect(within(card).getByRole('alert')).toHaveTextContent('orders.unknown_measure');
    await userEvent.click(within(card).getByRole('button', { name: 'Try again' }));
  },
};

/** A comparison the query cannot make (no date range to move): says why; nothing is sent. */
export const ComparisonImpossible: Story = {
  args: { query: { measures: ['orders.count'] }, compare: 'previousPeriod' },
  play: async ({ canvasElement }) => {
    const card = await settled(canvasElement, 'metric-card');
    await expect(within(card).getByRole('alert')).toHaveTextContent(/no time dimension with a dateRange/);
    await expect(within(card).queryByRole('button')).toBeNull();
  },
};
